import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';

/**
 * Where listing photos live. Keys are chosen by the server and never reused, so whatever sits
 * under a key may be cached forever. One implementation per kind of storage, chosen by config.
 */
export interface PhotoStorage {
  /** Stores `body` under `key`; when it resolves, `url(key)` serves it. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** What is stored under `key`, or null when nothing is (files the app serves itself, such as documents). */
  get(key: string): Promise<Buffer | null>;
  /** Removes what is stored under these keys; keys that hold nothing are fine. */
  remove(keys: string[]): Promise<void>;
  /** The public URL of `key`. */
  url(key: string): string;
}

/**
 * Photos in `DATA_DIR/photos`, served by the app at `/media/photos/<key>`; documents in
 * `DATA_DIR/documents`, which nothing serves directly (the document route reads them).
 */
export class LocalPhotoStorage implements PhotoStorage {
  readonly root: string;

  constructor(dataDir: string, folder: 'photos' | 'documents' = 'photos') {
    this.root = resolve(dataDir, folder);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer, _contentType?: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
    try {
      await writeFile(partial, body);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  url(key: string): string {
    return `/media/photos/${key}`;
  }

  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`photo key outside the photo folder: ${key}`);
    return path;
  }
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's endpoint (MinIO, R2, ...); unset for AWS itself. */
  endpoint: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Where the bucket's objects are publicly readable (a CDN in front of it, typically). */
  publicUrl: string;
  forcePathStyle: boolean;
}

/** Photos in an S3-compatible bucket, served from it (or a CDN) directly. */
export class S3PhotoStorage implements PhotoStorage {
  private clientPromise: Promise<S3Client> | null = null;

  constructor(private readonly settings: S3Settings) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await (await this.client()).send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const { GetObjectCommand, NoSuchKey } = await import('@aws-sdk/client-s3');
    try {
      const answer = await (await this.client()).send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async remove(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const { DeleteObjectsCommand } = await import('@aws-sdk/client-s3');
    await (await this.client()).send(new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
  }

  url(key: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}/${key}`;
  }

  // The SDK is loaded only by deployments that store photos in a bucket.
  private client() {
    this.clientPromise ??= import('@aws-sdk/client-s3').then(
      ({ S3Client }) =>
        new S3Client({
          region: this.settings.region,
          forcePathStyle: this.settings.forcePathStyle,
          ...(this.settings.endpoint ? { endpoint: this.settings.endpoint } : {}),
          ...(this.settings.accessKeyId && this.settings.secretAccessKey
            ? { credentials: { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey } }
            : {}),
        }),
    );
    return this.clientPromise;
  }
}

export function createPhotoStorage(options: { dataDir: string; s3: S3Settings | null; folder?: 'photos' | 'documents' }): PhotoStorage {
  return options.s3 ? new S3PhotoStorage(options.s3) : new LocalPhotoStorage(options.dataDir, options.folder);
}

/**
 * Storage keys never used before, for one document of one car. In a bucket they sit under
 * `documents/`, unguessable; the app serves them itself, with the headers a document needs.
 */
export function newDocumentKey(carId: number): string {
  return `documents/cars/${carId}/${randomBytes(18).toString('base64url')}`;
}

/** Storage keys never used before, for one photo of one car. */
export function newPhotoKey(carId: number): string {
  return `cars/${carId}/${randomBytes(9).toString('base64url')}`;
}
