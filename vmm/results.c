/* Named numeric results the guest reports through the test device. */
#include "results.h"

#include <string.h>

void results_init(struct results *r)
{
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
}

void results_destroy(struct results *r)
{
	pthread_mutex_destroy(&r->lock);
}

void results_add(struct results *r, const char *name, uint64_t value)
{
	pthread_mutex_lock(&r->lock);
	struct result *slot = NULL;
	for (unsigned i = 0; i < r->count && !slot; i++)
		if (strcmp(r->item[i].name, name) == 0)
			slot = &r->item[i];
	if (!slot && r->count < RESULTS_MAX) {
		slot = &r->item[r->count++];
		strncpy(slot->name, name, sizeof(slot->name) - 1);
	}
	if (slot)
		slot->value = value;
	else
		r->dropped++;
	pthread_mutex_unlock(&r->lock);
}

void results_print(struct results *r, FILE *out)
{
	pthread_mutex_lock(&r->lock);
	for (unsigned i = 0; i < r->count; i++)
		fprintf(out, "vmm: result %s=%llu\n", r->item[i].name,
			(unsigned long long)r->item[i].value);
	if (r->dropped)
		fprintf(out, "vmm: %u results dropped (more than %d names)\n", r->dropped,
			RESULTS_MAX);
	pthread_mutex_unlock(&r->lock);
}
