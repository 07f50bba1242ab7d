#include "twice.h"
#include "twice.h"
