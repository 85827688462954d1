#include <math.h>
#include "linsolve.h"

void linsolve(int n, double *a, double *b, double *x)
{
	for (int i = 0; i < n; i++) {
		int piv = i;
		for (int k = i + 1; k < n; k++)
			if (fabs(a[k * n + i]) > fabs(a[piv * n + i]))
				piv = k;
		for (int j = 0; j < n; j++) {
			double t = a[i * n + j];
			a[i * n + j] = a[piv * n + j];
			a[piv * n + j] = t;
		}
		double t = b[i];
		b[i] = b[piv];
		b[piv] = t;
		for (int k = i + 1; k < n; k++) {
			double f = a[k * n + i] / a[i * n + i];
			for (int j = i; j < n; j++)
				a[k * n + j] -= f * a[i * n + j];
			b[k] -= f * b[i];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = b[i];
		for (int j = i + 1; j < n; j++)
			s -= a[i * n + j] * x[j];
		x[i] = s / a[i * n + i];
	}
}
