#include "core.h"
#include "front.h"
