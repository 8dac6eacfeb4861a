import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3-compatible stores (AWS S3, MinIO, Ceph, Garage, R2…), as
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html describes it: a
 * canonical request, the string to sign, a signing key derived from the secret for the day, region
 * and service, and an Authorization header naming the signed headers.
 */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `s3` for buckets. */
  service: string;
}

export interface SignableRequest {
  method: string;
  url: URL;
  /** Headers to send and sign besides host, x-amz-date and x-amz-content-sha256 (which are added). */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (`sha256Hex(body)`), or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
}

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 escaping as SigV4 wants it: everything but unreserved characters. */
const escape = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20130524T000000Z`: the request's time, in the basic ISO 8601 form SigV4 signs. */
export const amzDate = (at: Date): string =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The headers that sign `request` at `at`: those given, with `x-amz-date`, `x-amz-content-sha256`
 * and `authorization`. Send them with the request as they are (`host` is the URL's, which fetch sends).
 *
 * @example
 * const headers = signV4({ method: 'GET', url, payloadHash: sha256Hex('') }, credentials, new Date());
 */
export function signV4(request: SignableRequest, credentials: SigV4Credentials, at: Date): Record<string, string> {
  const date = amzDate(at);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {
    ...lowerCased(request.headers ?? {}),
    'x-amz-date': date,
    'x-amz-content-sha256': request.payloadHash,
  };
  const signed: Record<string, string> = { ...headers, host: request.url.host };
  const names = Object.keys(signed).sort();
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.url),
    canonicalQuery(request.url),
    names.map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    request.payloadHash,
  ].join('\n');
  const scope = `${day}/${credentials.region}/${credentials.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), credentials.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`,
  };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** Each path segment escaped once (S3 does not escape twice, unlike other services). */
function canonicalPath(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) => escape(decodeURIComponent(segment)))
    .join('/');
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([name, value]) => [escape(name), escape(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}
