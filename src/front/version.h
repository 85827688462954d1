/*
 * version.h - `PROGRAM --version` of every program of the project (the
 * line is the core's text_version()).
 */
#ifndef EMILIA_FRONT_VERSION_H
#define EMILIA_FRONT_VERSION_H

/* Prints PROGRAM's version line and a newline on stdout; returns 0 (an
 * exit status). */
int version_print(const char *program);

#endif
