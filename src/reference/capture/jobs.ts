// Capture jobs of the EPCIS 2.0 REST binding: a POST /capture is answered 202 with the job's URL, and the job
// tells, while and after it runs, whether its events were captured (CaptureJob in the binding's OpenAPI).

/** How a job treats an error: "rollback" stores nothing of a job with an error, "proceed" stores the rest. */
export type CaptureErrorBehaviour = "rollback" | "proceed";

/** A problem (RFC 7807), as the binding's CaptureJob lists its errors. */
export interface CaptureProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

/** The capture job document of the binding: captureID, createdAt, finishedAt, running, success, errors. */
export interface CaptureJob {
  captureID: string;
  createdAt: string;
  finishedAt?: string;
  running: boolean;
  success: boolean;
  captureErrorBehaviour: CaptureErrorBehaviour;
  errors: CaptureProblem[];
}

/** The jobs of one sender, oldest first. Ids are sequence numbers, so a job's URL never names another's. */
export class CaptureJobs {
  readonly #jobs = new Map<string, CaptureJob>();

  start(behaviour: CaptureErrorBehaviour): CaptureJob {
    const job: CaptureJob = {
      captureID: `capture-${this.#jobs.size + 1}`,
      createdAt: new Date().toISOString(),
      running: true,
      success: true,
      captureErrorBehaviour: behaviour,
      errors: [],
    };
    this.#jobs.set(job.captureID, job);
    return job;
  }

  finish(job: CaptureJob, errors: CaptureProblem[]): void {
    job.errors = errors;
    job.success = errors.length === 0;
    job.running = false;
    job.finishedAt = new Date().toISOString();
  }

  get(id: string): CaptureJob | undefined {
    return this.#jobs.get(id);
  }

  list(): CaptureJob[] {
    return [...this.#jobs.values()];
  }
}
