// error: include/broken.h:3:12: expected an expression, found '='
#include "include/broken.h"
