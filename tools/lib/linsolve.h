/*
 * linsolve.h - a small dense linear solver for the tools' least-squares
 * fits (emilia-probcut's sigma model, emilia-train --fit-hand).
 */
#ifndef EMILIA_LINSOLVE_H
#define EMILIA_LINSOLVE_H

/* Solves a x = b for the n unknowns x by Gaussian elimination with
 * partial pivoting.  a is n x n, row after row (a[i * n + j]); a and b
 * are overwritten.  a must not be singular. */
void linsolve(int n, double *a, double *b, double *x);

#endif
