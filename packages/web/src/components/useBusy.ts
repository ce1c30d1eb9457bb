import type { FormInstance } from 'antd';
import { useRef, useState } from 'react';

/**
 * One save at a time for a button: a second click while the first is on its way does nothing
 * (a double click made two rows), and `busy` shows the button's loading state meanwhile. The
 * guard is a ref, set in the click itself: a state update would let the second click of a double
 * click through before the re-render.
 */
export function useBusy() {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    try {
      return await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  /** A dialog's OK: the form's fields checked (their messages shown), then `work` with its values, once at a time. */
  const submit = <V>(form: FormInstance<V>, work: (values: V) => Promise<unknown>) =>
    run(async () => {
      let values: V;
      try {
        values = await form.validateFields();
      } catch {
        return;
      }
      await work(values);
    });
  return { busy, run, submit };
}
