import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../shared/index.ts';
import { createLogger } from '../../shared/server/index.ts';
import { closeServer, freePort } from '../../test/stack.ts';
import { readBffConfig } from '../host/config.ts';
import { FileAttachmentStorage } from './file-storage.ts';
import { openAttachments } from './open-storage.ts';
import { S3AttachmentStorage } from './s3-storage.ts';
import { sha256Hex, signV4 } from './sigv4.ts';
import { MemoryAttachmentStorage, type AttachmentStorage } from './storage.ts';

const logger = createLogger('test');
const KEY = 'k'.repeat(16) + 'AbC_-123';

/** The behaviour every storage shares: a put is read back, a delete forgets, a missing key is undefined, and only the BFF's own keys are taken. */
async function expectStorageContract(storage: AttachmentStorage): Promise<void> {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  expect(await storage.get(KEY)).toBeUndefined();
  await storage.put(KEY, bytes, 'image/png');
  expect((await storage.get(KEY))?.equals(bytes)).toBe(true);
  await storage.put(KEY, Buffer.from('again'), 'image/png');
  expect((await storage.get(KEY))?.toString()).toBe('again');
  await storage.delete(KEY);
  expect(await storage.get(KEY)).toBeUndefined();
  // Deleting what is not there is no error (an erasure may run twice).
  await storage.delete(KEY);
  for (const bad of ['../../etc/passwd', 'short', 'a/b'.repeat(8), `${KEY}.png`]) {
    await expect(storage.put(bad, bytes, 'image/png')).rejects.toThrow(TypeError);
    await expect(storage.get(bad)).rejects.toThrow(TypeError);
  }
}

describe('attachment storage', () => {
  it('keeps bytes in memory for DATA_DIR=memory://', async () => {
    const storage = new MemoryAttachmentStorage();
    await expectStorageContract(storage);
    expect(storage.size).toBe(0);
  });

  it('keeps bytes as files readable by this user only, with no half-written file left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-attachments-'));
    try {
      const storage: AttachmentStorage = new FileAttachmentStorage(join(dir, 'attachments'));
      await expectStorageContract(storage);
      await storage.put(KEY, Buffer.from('kept'), 'application/pdf');
      expect(await readdir(join(dir, 'attachments'))).toEqual([KEY]);
      expect((await stat(join(dir, 'attachments', KEY))).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'attachments'))).mode & 0o777).toBe(0o700);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('chooses the storage the settings name: a bucket, files under DATA_DIR, or memory', () => {
    const settings = (dataDir: string, s3?: boolean) => ({
      dataDir,
      attachments: {
        maxBytes: 1024,
        s3: s3
          ? {
              bucketUrl: 'https://bucket.example',
              region: 'eu-west-1',
              accessKeyId: 'AKIDEXAMPLE',
              secretAccessKey: 'secret-secret',
            }
          : undefined,
      },
    });
    expect(openAttachments(settings('/tmp/x', true), logger).storage.kind).toBe('s3');
    expect(openAttachments(settings('/tmp/x'), logger).storage.kind).toBe('files');
    expect(openAttachments(settings('memory://'), logger).storage.kind).toBe('memory');
  });

  it('reads the bucket settings, and refuses a bucket without its keys or keys without a bucket', () => {
    const env = { AI_API_URL: 'http://127.0.0.1:1', AI_API_KEY: `service_test_${'a'.repeat(24)}` };
    expect(readBffConfig(env).attachments).toEqual({
      maxBytes: 10 * 1024 * 1024,
      storageMaxBytes: 1024 * 1024 * 1024,
      s3: undefined,
    });
    const bucket = {
      ATTACHMENTS_S3_URL: 'http://127.0.0.1:9000/parley',
      ATTACHMENTS_S3_ACCESS_KEY_ID: 'minio',
      ATTACHMENTS_S3_SECRET_ACCESS_KEY: 'minio-secret',
      ATTACHMENTS_MAX_BYTES: '2048',
      ATTACHMENTS_STORAGE_MAX_BYTES: '5000000',
    };
    expect(readBffConfig({ ...env, ...bucket }).attachments).toEqual({
      maxBytes: 2048,
      storageMaxBytes: 5_000_000,
      s3: {
        bucketUrl: 'http://127.0.0.1:9000/parley',
        region: 'us-east-1',
        accessKeyId: 'minio',
        secretAccessKey: 'minio-secret',
      },
    });
    expect(() => readBffConfig({ ...env, ATTACHMENTS_S3_URL: 'https://bucket.example' })).toThrow(
      /ATTACHMENTS_S3_ACCESS_KEY_ID: must be set when ATTACHMENTS_S3_URL is/,
    );
    expect(() => readBffConfig({ ...env, ATTACHMENTS_S3_SECRET_ACCESS_KEY: 'minio-secret' })).toThrow(
      /ATTACHMENTS_S3_URL: must be set when ATTACHMENTS_S3_SECRET_ACCESS_KEY is/,
    );
    expect(() =>
      readBffConfig({
        ...env,
        ATTACHMENTS_S3_URL: 'ftp://bucket.example',
        ATTACHMENTS_S3_ACCESS_KEY_ID: 'a1b',
        ATTACHMENTS_S3_SECRET_ACCESS_KEY: 'secret-secret',
      }),
    ).toThrow(/ATTACHMENTS_S3_URL/);
    expect(() => readBffConfig({ ...env, ATTACHMENTS_MAX_BYTES: '10' })).toThrow(/ATTACHMENTS_MAX_BYTES/);
    expect(() => readBffConfig({ ...env, ATTACHMENTS_STORAGE_MAX_BYTES: '1000' })).toThrow(
      /ATTACHMENTS_STORAGE_MAX_BYTES/,
    );
  });
});

describe('SigV4 signing', () => {
  it('signs AWS\'s published example (S3 API reference, "Example: GET Object") to the signature it gives', () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html: the first
    // 10 bytes of test.txt from examplebucket, with the documentation's example credentials.
    const headers = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadHash: sha256Hex(''),
      },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
        service: 's3',
      },
      new Date('2013-05-24T00:00:00Z'),
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(headers['authorization']).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

/**
 * There is no S3 server on this machine: a small real HTTP server stands in for the bucket. It
 * checks every request's SigV4 signature with its own computation below (written apart from
 * sigv4.ts, from the received request as it came over the wire), refuses a bad one with 403 as S3
 * does, and keeps objects in a Map.
 */
class FakeBucket {
  readonly objects = new Map<string, { bytes: Buffer; type: string | undefined }>();
  readonly seen: { method: string; path: string; signedHeaders: string }[] = [];
  server!: Server;
  url = '';

  constructor(
    readonly secrets: Record<string, string>,
    readonly region: string,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const verdict = this.verify(req, body);
        if (verdict !== 'ok') {
          res
            .writeHead(403, { 'content-type': 'application/xml' })
            .end(`<Error><Code>SignatureDoesNotMatch</Code><Message>${verdict}</Message></Error>`);
          return;
        }
        const path = decodeURIComponent(new URL(req.url!, 'http://bucket').pathname);
        if (req.method === 'PUT') {
          this.objects.set(path, { bytes: body, type: req.headers['content-type'] });
          res.writeHead(200).end();
        } else if (req.method === 'GET') {
          const object = this.objects.get(path);
          if (!object)
            res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
          else res.writeHead(200, { 'content-type': object.type ?? 'application/octet-stream' }).end(object.bytes);
        } else if (req.method === 'DELETE') {
          this.objects.delete(path);
          res.writeHead(204).end();
        } else {
          res.writeHead(405).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** SigV4 as the bucket checks it: from the Authorization header's parts and the request as received. */
  verify(req: IncomingMessage, body: Buffer): string {
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,SignedHeaders=([a-z0-9;-]+),Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!match) return 'no SigV4 Authorization header';
    const [, keyId, day, region, signedHeaders, signature] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const secret = this.secrets[keyId];
    if (!secret) return 'unknown access key';
    if (region !== this.region) return 'wrong region';
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (
      !amzDate.startsWith(day) ||
      Math.abs(
        Date.parse(
          `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`,
        ) - Date.now(),
      ) >
        15 * 60_000
    )
      return 'bad date';
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (payloadHash !== createHash('sha256').update(body).digest('hex'))
      return 'the payload hash does not match the body';
    const names = signedHeaders.split(';');
    if (!['host', 'x-amz-date', 'x-amz-content-sha256'].every((name) => names.includes(name)))
      return 'required headers unsigned';
    const canonical = [
      req.method,
      new URL(req.url!, 'http://bucket').pathname,
      '',
      ...names.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}`),
      '',
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
    let key: Buffer = Buffer.from(`AWS4${secret}`);
    for (const part of [day, region, 's3', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
    const expected = createHmac('sha256', key).update(toSign).digest('hex');
    this.seen.push({ method: req.method!, path: req.url!, signedHeaders });
    return expected === signature ? 'ok' : 'signature does not match';
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }
}

describe('attachments in an S3-compatible bucket', () => {
  const bucket = new FakeBucket({ PARLEYTESTKEY: 'test/secret+key=' }, 'eu-west-1');
  beforeAll(() => bucket.start());
  afterAll(() => bucket.stop());

  const storage = (secret = 'test/secret+key=', prefix = '/parley-bucket/uploads') =>
    new S3AttachmentStorage({
      bucketUrl: `${bucket.url}${prefix}/`,
      region: 'eu-west-1',
      accessKeyId: 'PARLEYTESTKEY',
      secretAccessKey: secret,
    });

  it('puts, gets and deletes objects with requests the bucket finds correctly signed', async () => {
    await expectStorageContract(storage());
    await storage().put(KEY, Buffer.from('%PDF-1.7'), 'application/pdf');
    expect(bucket.objects.get(`/parley-bucket/uploads/${KEY}`)).toEqual({
      bytes: Buffer.from('%PDF-1.7'),
      type: 'application/pdf',
    });
    expect(bucket.seen.find((request) => request.method === 'PUT')?.signedHeaders).toBe(
      'content-type;host;x-amz-content-sha256;x-amz-date',
    );
  });

  it('reports a refusal (a wrong secret) and an unreachable bucket as upstream_unavailable, naming no secret', async () => {
    const refused = await storage('not-the-secret')
      .put(KEY, Buffer.from('x'), 'image/png')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ParleyError);
    expect((refused as ParleyError).code).toBe('upstream_unavailable');
    expect((refused as ParleyError).message).toContain('403');
    expect((refused as ParleyError).message).not.toContain('not-the-secret');
    const away = new S3AttachmentStorage({
      bucketUrl: `http://127.0.0.1:${await freePort()}/b`,
      region: 'eu-west-1',
      accessKeyId: 'PARLEYTESTKEY',
      secretAccessKey: 'x',
    });
    await expect(away.get(KEY)).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });
});
