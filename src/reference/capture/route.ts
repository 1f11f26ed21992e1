// The EPCIS 2.0 capture interface of the reference sender (REST binding: OPTIONS, POST and GET /capture, GET
// /capture/{captureID}). The spec asks for none of it (spec 1: "the only EPCIS method required is GET /events");
// it is here so that a harness can load a sender the way a pipeline loads its staging server.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { EpcisEvent } from "../../model/index.ts";
import { sendProblem } from "../problem.ts";
import type { EventStore } from "../store/index.ts";
import { readCaptureBody } from "./document.ts";
import { type CaptureErrorBehaviour, type CaptureJob, CaptureJobs, type CaptureProblem } from "./jobs.ts";

/** What one capture request may hold; announced in GS1-EPCIS-Capture-Limit and -File-Size-Limit. */
export interface CaptureLimits {
  /** Events per request. */
  events: number;
  /** Bytes of the request body. */
  bytes: number;
}

export const DEFAULT_CAPTURE_LIMITS: Readonly<CaptureLimits> = Object.freeze({
  events: 500,
  bytes: 16 * 1024 * 1024,
});

export const VALIDATION_EXCEPTION = "epcisException:ValidationException";
export const CAPTURE_LIMIT_EXCEEDED = "epcisException:CaptureLimitExceededException";
const MEDIA_TYPES = new Set(["application/json", "application/ld+json"]);

/**
 * Registers the capture interface in its own scope of `app`, under the key check `app` already has: its body
 * parser and error handler (a 413 that names the limits) stay out of the other routes.
 */
export function registerCapture(
  app: FastifyInstance,
  store: EventStore,
  given: Partial<CaptureLimits> = {},
): CaptureJobs {
  const limits = checkedLimits({ ...DEFAULT_CAPTURE_LIMITS, ...given });
  const jobs = new CaptureJobs();
  const eventIds = new Set<string>();
  for (const e of store.events) if (typeof e.eventID === "string") eventIds.add(e.eventID);

  app.register(async (capture) => {
    capture.removeAllContentTypeParsers();
    capture.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: limits.bytes }, (_req, body, done) =>
      done(null, body),
    );
    capture.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      if (error.statusCode === 413) {
        return tooLarge(
          reply,
          limits,
          `The body is larger than ${limits.bytes} bytes; split the events over several requests.`,
        );
      }
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      return sendProblem(reply, status, VALIDATION_EXCEPTION, "Capture refused", error.message);
    });

    capture.options("/capture", async (_request, reply) => {
      announceLimits(reply, limits);
      return reply
        .code(204)
        .header("allow", "OPTIONS, POST, GET")
        .header("gs1-epcis-version", "2.0.0")
        .header("gs1-capture-error-behaviour", "all")
        .send();
    });

    capture.post("/capture", async (request, reply) => {
      const mediaType = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      if (!MEDIA_TYPES.has(mediaType)) {
        return sendProblem(
          reply,
          415,
          VALIDATION_EXCEPTION,
          "Unsupported media type",
          `A capture body is JSON-LD: send it as application/json or application/ld+json, not "${mediaType}".`,
        );
      }
      const behaviour = errorBehaviour(request.headers["gs1-capture-error-behaviour"]);
      if (behaviour === undefined) {
        return sendProblem(
          reply,
          400,
          VALIDATION_EXCEPTION,
          "Unknown capture error behaviour",
          "GS1-Capture-Error-Behaviour must be rollback or proceed.",
        );
      }
      const read = readCaptureBody((request.body as Buffer | undefined)?.toString("utf8") ?? "");
      if (!read.ok)
        return sendProblem(reply, 400, VALIDATION_EXCEPTION, "Not an EPCIS document", read.detail);
      if (read.events.length > limits.events) {
        return tooLarge(
          reply,
          limits,
          `The document holds ${read.events.length} events, more than the ${limits.events} one request may hold; split them over several requests.`,
        );
      }
      const job = jobs.start(behaviour);
      // The job runs after the answer, as an asynchronous capture does: a client follows it until it finishes.
      setImmediate(() => runJob(job, read.events));
      // The job's path under the one this request came to, so that a sender mounted under a prefix names it right.
      const at = (request.raw.url ?? "/capture").split("?")[0]?.replace(/\/+$/, "") ?? "/capture";
      return reply
        .code(202)
        .header("location", `${at}/${job.captureID}`)
        .header("gs1-epcis-version", "2.0.0")
        .send();
    });

    capture.get("/capture", async (_request, reply) => reply.type("application/json").send(jobs.list()));

    capture.get<{ Params: { captureID: string } }>("/capture/:captureID", async (request, reply) => {
      const job = jobs.get(request.params.captureID);
      if (job === undefined) {
        return sendProblem(
          reply,
          404,
          "epcisException:NoSuchResourceException",
          "No such capture job",
          "No capture job has this id; use the URL the Location header of the capture answer gave.",
        );
      }
      return reply.type("application/json").send(job);
    });
  });

  /**
   * Stores a job's events. An eventID identifies one event (EPCIS 2.0: a globally unique identifier), so an
   * event whose eventID is held already, or that the job repeats, is an error: under rollback nothing of the
   * job is stored.
   */
  function runJob(job: CaptureJob, events: readonly EpcisEvent[]): void {
    const errors: CaptureProblem[] = [];
    const accepted: EpcisEvent[] = [];
    const inJob = new Set<string>();
    for (const event of events) {
      const id = event.eventID;
      if (typeof id === "string" && (eventIds.has(id) || inJob.has(id))) {
        errors.push({
          type: VALIDATION_EXCEPTION,
          title: "Duplicate eventID",
          status: 409,
          detail: `The event ${id} is captured already; an eventID names one event.`,
        });
        continue;
      }
      if (typeof id === "string") inJob.add(id);
      accepted.push(event);
    }
    if (errors.length === 0 || job.captureErrorBehaviour === "proceed") {
      store.insert(accepted);
      for (const id of inJob) eventIds.add(id);
    }
    jobs.finish(job, errors);
  }

  return jobs;
}

function errorBehaviour(header: string | string[] | undefined): CaptureErrorBehaviour | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "rollback") return "rollback";
  return value === "proceed" ? "proceed" : undefined;
}

function announceLimits(reply: FastifyReply, limits: CaptureLimits): void {
  reply
    .header("gs1-epcis-capture-limit", String(limits.events))
    .header("gs1-epcis-capture-file-size-limit", String(limits.bytes));
}

function tooLarge(reply: FastifyReply, limits: CaptureLimits, detail: string): FastifyReply {
  announceLimits(reply, limits);
  return sendProblem(reply, 413, CAPTURE_LIMIT_EXCEEDED, "Capture payload too large", detail);
}

function checkedLimits(limits: CaptureLimits): CaptureLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(
        `The capture limit of ${name} must be a positive whole number, got ${value}; fix the configuration.`,
      );
    }
  }
  return limits;
}
