/* `vmm ab`: one test kernel under two or more configurations, several rounds
 * alternating A B A B, each run a child `vmm run` with --stats-json; prints
 * medians (min-max) of the chosen metrics, ratios to the first
 * configuration, and the same as JSON. */
#ifndef VMM_AB_H
#define VMM_AB_H

/* argv[1] is "ab". Returns vmm's exit status. */
int ab_main(int argc, char **argv);

#endif
