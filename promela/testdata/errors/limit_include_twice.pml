// error: include/twice.h:1:1: #include nested too deeply
#include "include/twice.h"
