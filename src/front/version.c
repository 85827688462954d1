#include <stdio.h>
#include "text.h"
#include "version.h"

int version_print(const char *program)
{
	char line[256];
	text_version(program, line, sizeof line);
	puts(line);
	return 0;
}
