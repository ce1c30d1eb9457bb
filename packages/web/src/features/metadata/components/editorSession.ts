import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { metadataApi, translationsKey, type Translation } from '../api';

/** A form of the editor that saves as it is typed in (the Overview, the Translations). */
export interface AutosavingForm {
  /** Saves the changes the autosave timer is still holding back, now. */
  saveNow(): void;
  /** The page is going away: sends the unsaved changes with `keepalive` requests. */
  saveOnUnload(): void;
  /** The labels of the fields not stored now ([] when unknown which); null when everything is stored. */
  unsaved(): string[] | null;
  /** Forgets the values kept for fields that could not be saved (the user chose to leave them). */
  discard(): void;
}

/** A dialog holding typing that nothing saves until its button is pressed: named by its title while it does. */
export interface OpenDialog {
  unsaved(): string[] | null;
}

/**
 * What the tabs of one open editor share: the autosaving form's writes run one after another in
 * `queue`, and whatever reads, submits or leaves first waits for them (`flush`), so that it never
 * sees or overwrites what is still being saved. Leaving asks first while `unsaved()` names something.
 */
export interface EditorSession {
  /** Runs `work` after every write queued before it; a failed write does not stop the later ones. */
  enqueue<T>(work: () => Promise<T>): Promise<T>;
  /** Starts the autosaving form's pending save now and waits until every queued write has finished. */
  flush(): Promise<void>;
  /** The Overview's or the Translations' while it is shown (the tabs are never shown together): see useSessionAutosave. */
  autosave: AutosavingForm | null;
  /** Makes `form` the session's autosaving form; the function returned undoes it (if it is still that form). */
  register(form: AutosavingForm): () => void;
  /** Dialogs open now with something typed in them. */
  dialogs: Set<OpenDialog>;
  /** What is not stored now, named ([] when unknown which); null when everything is. */
  unsaved(): string[] | null;
}

export function createEditorSession(): EditorSession {
  let queue: Promise<unknown> = Promise.resolve();
  const session: EditorSession = {
    autosave: null,
    dialogs: new Set(),
    register(form) {
      session.autosave = form;
      return () => {
        if (session.autosave === form) session.autosave = null;
      };
    },
    enqueue<T>(work: () => Promise<T>) {
      const next = queue.then(work);
      queue = next.catch(() => undefined);
      return next;
    },
    async flush() {
      session.autosave?.saveNow();
      // A write queued while waiting is waited for too.
      let current: Promise<unknown>;
      do {
        current = queue;
        await current;
      } while (current !== queue);
    },
    unsaved() {
      const parts = [session.autosave?.unsaved() ?? null, ...[...session.dialogs].map((dialog) => dialog.unsaved())].filter((part): part is string[] => part !== null);
      return parts.length ? parts.flat() : null;
    },
  };
  return session;
}

/**
 * Makes a tab's autosaving form the session's while the tab is shown; the session always calls the
 * handlers of the form's latest render. Leaving the tab keeps what was typed: its pending save is
 * queued then.
 */
export function useSessionAutosave(session: EditorSession, form: AutosavingForm) {
  const latest = useRef(form);
  useLayoutEffect(() => {
    latest.current = form;
  });
  useEffect(() => {
    const autosave: AutosavingForm = {
      saveNow: () => latest.current.saveNow(),
      saveOnUnload: () => latest.current.saveOnUnload(),
      unsaved: () => latest.current.unsaved(),
      discard: () => latest.current.discard(),
    };
    const unregister = session.register(autosave);
    return () => {
      autosave.saveNow();
      unregister();
    };
  }, [session]);
}

/**
 * The record's translations as the server has them now: read when the tab opens, after the
 * Overview's pending writes. `ready` turns true once that read is done (or not needed).
 */
export function useFreshTranslations(recordId: string, session: EditorSession, needed = true) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let live = true;
    void session.flush().then(() => {
      if (live) setIdle(true);
    });
    return () => {
      live = false;
    };
  }, [session]);
  const query = useQuery({
    queryKey: translationsKey(recordId),
    queryFn: () => metadataApi.translations(recordId),
    enabled: needed && idle,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    staleTime: 0,
  });
  const translations: Translation[] = query.data?.results ?? [];
  const ready = idle && (!needed || query.isFetchedAfterMount || query.isError);
  return { translations, ready, error: query.error };
}
