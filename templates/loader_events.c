
/* CLOCK_REALTIME - CLOCK_MONOTONIC: bpf_ktime_get_ns() is the monotonic clock */
static __s64 wall_offset_ns;

static void init_wall_offset(void)
{
	struct timespec mono, real;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	wall_offset_ns = (real.tv_sec - mono.tv_sec) * 1000000000LL + (real.tv_nsec - mono.tv_nsec);
}

/* the time the event happened, taken in the kernel */
static void print_time(__u64 ts_ns)
{
	static char ts[16];
	static time_t last;
	time_t t = (time_t)(((__s64)ts_ns + wall_offset_ns) / 1000000000LL);

	/* localtime() looks at /etc/localtime each call: once a second is enough */
	if (t != last) {
		strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&t));
		last = t;
	}
	if (env.json)
		printf("\"time\":\"%s\"", ts);
	else
		printf("%-8s", ts);
}

static void print_header(void)
{
	if (env.json)
		return;
	{{HEADER}}
}

static int handle_event(void *ctx, void *data, size_t data_sz)
{
	const struct event_hdr *hdr = data;

	static unsigned int seen;

	(void)ctx;	/* ring_buffer__new() was given none */
	if (exiting)
		return -EINTR;	/* Ctrl-C: stop reading, even with records waiting */
	/* records may come as fast as they are read (a tool tracing its own output): look at the clock */
	if (deadline && !(++seen % 1024) && now() >= deadline)
		return -EAGAIN;
	if (data_sz < sizeof(*hdr))
		return 0;
{{#if AGG}}
	metrics_count_record(hdr->type);
{{/if}}
	if (output_closed)
		return 0;
	switch (hdr->type) {
	{{EVENT_CASES}}
	}
	return 0;
}
