/* Shared definitions for preprocessor.pml: included relative to the
 * including file's directory. */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#define MAXV 3
#define INC(v) v = (v + 1) % (MAXV + 1)
#define BOTH(a, b) ((a) && (b))

#endif
