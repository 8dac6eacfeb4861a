import {
  CreateReportRequest,
  ReportDays,
  ReportRecord,
  isErrorBody,
  type ReportSummaryQuery,
} from '../../shared/index.ts';
import { callEngine, EngineCallError, type EngineTransport } from './engine-call.ts';

/** A ready report's file as the engine serves it: its type, its download name and its text. */
export interface EngineReportFile {
  contentType: string;
  disposition: string;
  body: string;
}

/** The engine's reports (`/v1/reports…`) on one key: figures by day, reports asked for, and their files. */
export interface EngineReports {
  daily(query: ReportSummaryQuery): Promise<ReportDays>;
  request(order: CreateReportRequest, idempotencyKey?: string): Promise<ReportRecord>;
  report(id: string): Promise<ReportRecord>;
  content(id: string): Promise<EngineReportFile>;
}

/**
 * The reports calls over one transport (an EngineClient's). The file is read as text, not JSON:
 * it may be CSV, and it goes on to the console as the engine wrote it.
 */
export function engineReports(transport: EngineTransport): EngineReports {
  const path = (id: string) => `/v1/reports/${encodeURIComponent(id)}`;
  return {
    daily(query) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value);
      return callEngine(transport, 'GET', `/v1/reports/daily?${search}`, ReportDays);
    },
    request: (order, idempotencyKey) =>
      callEngine(transport, 'POST', '/v1/reports', ReportRecord, order, idempotencyKey),
    report: (id) => callEngine(transport, 'GET', path(id), ReportRecord),
    content: (id) => readFile(transport, `${path(id)}/content`),
  };
}

async function readFile(transport: EngineTransport, path: string): Promise<EngineReportFile> {
  let text: string;
  let response: Awaited<ReturnType<EngineTransport['fetch']>>;
  try {
    response = await transport.fetch(transport.baseUrl + path, {
      method: 'GET',
      headers: { authorization: `Bearer ${transport.bearer}` },
      body: null,
      timeoutMs: transport.timeoutMs,
    });
    text = await response.text();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineCallError(`The engine could not be reached (GET ${path}): ${reason}`, {
      status: 0,
      code: 'unreachable',
    });
  }
  if (!response.ok) {
    const refusal = parsed(text);
    throw new EngineCallError(
      isErrorBody(refusal) ? refusal.error.message : `The engine answered ${response.status} to GET ${path}.`,
      { status: response.status, code: isErrorBody(refusal) ? refusal.error.code : 'internal' },
    );
  }
  return {
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    disposition: response.headers.get('content-disposition') ?? 'attachment',
    body: text,
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
