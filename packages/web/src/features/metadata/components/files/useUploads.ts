import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultOptions, Upload, type DetailedError, type PreviousUpload } from 'tus-js-client';
import { path } from '../../../../api/routes';
import { addSample, speedOf, type Sample } from './progress';
import { callHeaders } from './treeApi';

/** At most this many files go up at once (spec section 5): more are refused with a message. */
export const UPLOADS_AT_ONCE = 5;
/** The size of each PATCH: what the server has kept is known after each, so a drop loses at most one. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Waits between retries of a failed request while the browser is online (a server restarting, a proxy's 502). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000];

export type UploadState = 'uploading' | 'paused' | 'offline' | 'done' | 'failed';
export interface UploadItem {
  key: string;
  name: string;
  folder: string;
  total: number;
  sent: number;
  /** Bytes a second, over the last few seconds. */
  speed: number;
  state: UploadState;
  error?: string;
}

/** An upload of this record begun on this browser and not finished (the page was closed or reloaded). */
export interface Unfinished {
  key: string;
  name: string;
  folder: string;
  size: number;
}

/** The server's message in a tus error: its `detail`, else its first field message. */
function refusalOf(error: Error): string | undefined {
  const body = (error as DetailedError).originalResponse?.getBody();
  if (!body) return undefined;
  try {
    const reply = JSON.parse(body) as Record<string, unknown>;
    if (typeof reply.detail === 'string') return reply.detail;
    const field = Object.values(reply).find((value): value is string[] => Array.isArray(value) && typeof value[0] === 'string');
    return field?.[0];
  } catch {
    return undefined;
  }
}

/** A network failure (no answer at all), as opposed to the server's refusal. */
const unanswered = (error: Error) => !(error as DetailedError).originalResponse;

/**
 * Resumable uploads of a record's data files through tus (issue 19). Each upload's address is kept
 * in localStorage under a fingerprint of the record, the folder and the file, so that the same file
 * dropped again after a reload continues where it stopped; an upload cut by the network waits for
 * the browser to be online and goes on by itself. `onDone` runs when a file is listed.
 */
export function useUploads(metadataId: string, onDone: () => void) {
  const { t } = useTranslation();
  const [items, setItems] = useState<UploadItem[]>([]);
  const uploads = useRef(new Map<string, Upload>());
  const samples = useRef(new Map<string, Sample[]>());
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);

  const patch = useCallback((key: string, change: Partial<UploadItem>) => setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item))), []);

  const stored = useQuery({
    queryKey: ['tus-unfinished', metadataId],
    queryFn: async (): Promise<Unfinished[]> => {
      const all = await defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
      return all
        .filter((upload) => upload.metadata.metadata === metadataId)
        .map((upload) => ({ key: upload.urlStorageKey, name: upload.metadata.filename ?? '', folder: upload.metadata.path ?? '/', size: upload.size ?? 0 }));
    },
  });
  const unfinished = stored.data ?? [];
  const readUnfinished = stored.refetch;

  /** The uploads cut by the network, waiting for the browser to be online again. */
  const waiting = useRef(new Set<string>());
  // A cut upload goes on when the browser is back online.
  useEffect(() => {
    const cut = waiting.current;
    const online = () => {
      for (const key of cut) {
        uploads.current.get(key)?.start();
        patch(key, { state: 'uploading' });
      }
      cut.clear();
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [patch]);

  // Uploads stop with the page's editor (their addresses stay stored for the next visit).
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) void upload.abort();
    };
  }, []);

  const busy = items.filter((item) => item.state !== 'done' && item.state !== 'failed').length;

  /** Starts uploading `files` into `folder`; returns the names refused (beyond the files allowed at once). */
  const add = (files: File[], folder: string): string[] => {
    const room = Math.max(0, UPLOADS_AT_ONCE - busy);
    const taken = files.slice(0, room);
    for (const file of taken) start(file, folder);
    return files.slice(room).map((file) => file.name);
  };

  const start = (file: File, folder: string) => {
    const key = `${folder}\u0000${file.name}\u0000${Date.now()}\u0000${Math.random()}`;
    setItems((list) => [
      ...list.filter((item) => !(item.state === 'done' && item.folder === folder && item.name === file.name)),
      { key, name: file.name, folder, total: file.size, sent: 0, speed: 0, state: 'uploading' },
    ]);
    samples.current.set(key, []);
    const upload = new Upload(file, {
      endpoint: path('tusUploads'),
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { metadata: metadataId, filename: file.name, path: folder },
      // The record and the folder are part of the fingerprint: the same file sent elsewhere is another upload.
      fingerprint: async (source) => ['portal-tus', metadataId, folder, source.name, source.type, source.size, source.lastModified].join('|'),
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (req) => {
        // Set on each request (not in `headers`, which XHR would repeat): the CSRF cookie may have been renewed since the upload began.
        for (const [name, value] of Object.entries(callHeaders())) req.setHeader(name, value);
        req.getUnderlyingObject().withCredentials = true;
      },
      onShouldRetry: (error) => {
        if (!navigator.onLine) return false;
        const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423;
      },
      onProgress: (sent, total) => {
        const kept = addSample(samples.current.get(key) ?? [], { at: performance.now(), sent });
        samples.current.set(key, kept);
        patch(key, { sent, total, speed: speedOf(kept) });
      },
      onSuccess: () => {
        uploads.current.delete(key);
        patch(key, { state: 'done', speed: 0 });
        void readUnfinished();
        done.current();
      },
      onError: (error) => {
        if (unanswered(error) && !navigator.onLine) {
          samples.current.set(key, []);
          waiting.current.add(key);
          patch(key, { state: 'offline', speed: 0 });
          return;
        }
        patch(key, { state: 'failed', speed: 0, error: refusalOf(error) ?? (unanswered(error) ? t('fileManager.upload.network') : t('fileManager.upload.failed')) });
        void readUnfinished();
      },
    });
    uploads.current.set(key, upload);
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  };

  const pause = (key: string) => {
    waiting.current.delete(key);
    void uploads.current.get(key)?.abort();
    samples.current.set(key, []);
    patch(key, { state: 'paused', speed: 0 });
  };

  const resume = (key: string) => {
    const upload = uploads.current.get(key);
    if (!upload) return;
    patch(key, { state: 'uploading', error: undefined });
    upload.start();
  };

  /** Stops an upload for good: the server's part is deleted, and so is its stored address. */
  const cancel = (key: string) => {
    const upload = uploads.current.get(key);
    uploads.current.delete(key);
    waiting.current.delete(key);
    setItems((list) => list.filter((item) => item.key !== key));
    if (upload) void upload.abort(true).finally(() => void readUnfinished());
  };

  /** Forgets an upload left from an earlier visit (its part on the server expires by itself). */
  const forget = async (key: string) => {
    await defaultOptions.urlStorage.removeUpload(key);
    await readUnfinished();
  };

  const clearDone = () => setItems((list) => list.filter((item) => item.state !== 'done'));

  return { items, busy, unfinished, add, pause, resume, cancel, forget, clearDone };
}
