export { readCaptureBody } from "./document.ts";
export type { CaptureErrorBehaviour, CaptureJob, CaptureJobs, CaptureProblem } from "./jobs.ts";
export {
  CAPTURE_LIMIT_EXCEEDED,
  type CaptureLimits,
  DEFAULT_CAPTURE_LIMITS,
  registerCapture,
  VALIDATION_EXCEPTION,
} from "./route.ts";
