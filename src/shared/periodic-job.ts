/** A job that runs `run` shortly after start and then every `everyMs`, one run at a time. */
export interface PeriodicJob {
  /** Stops the timers and waits for a run under way. */
  stop(): Promise<void>;
}

/** Starts it; a run still going when the next is due is not doubled. `run` must not throw. */
export function startPeriodicJob(run: () => Promise<void>, options: { firstMs: number; everyMs: number }): PeriodicJob {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = run().finally(() => (running = null));
  };
  const first = setTimeout(tick, options.firstMs).unref();
  const interval = setInterval(tick, options.everyMs).unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}
