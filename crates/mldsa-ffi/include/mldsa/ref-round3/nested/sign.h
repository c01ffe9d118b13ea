/*
 * Forwards to ../sign.h. This directory is one level below the drop-in headers, as the reference's
 * test/ and nistkat/ programs are one level below its headers: with -I <this directory>, both
 * #include "sign.h" and #include "../sign.h" find the drop-in's sign.h.
 */
#include "../sign.h"
