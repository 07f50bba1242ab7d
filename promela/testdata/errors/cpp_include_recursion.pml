// error: include/self.h:1:1: #include nested too deeply
#include "include/self.h"
