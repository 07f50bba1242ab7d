// error: 2:10: cannot find include file "nonexistent.h"
#include "nonexistent.h"
