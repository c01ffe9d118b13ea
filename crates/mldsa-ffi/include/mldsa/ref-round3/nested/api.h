/*
 * Forwards to ../api.h. This directory is one level below the drop-in headers, as the reference's
 * test/ and nistkat/ programs are one level below its headers: with -I <this directory>, both
 * #include "api.h" and #include "../api.h" find the drop-in's api.h.
 */
#include "../api.h"
