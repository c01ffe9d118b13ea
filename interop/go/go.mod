module mldsa-interop/go

go 1.25.0

require filippo.io/mldsa v1.0.0
