import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { metadataApi, type SubmitCheck } from '../api';
import { useFeedback } from './useFeedback';

/**
 * Submitting a draft (spec sections 4, 5): the server is asked first; unless it answers the string
 * 'true', a dialog lists its reasons and nothing is saved. Otherwise the record goes to review.
 */
export function useSubmitFlow() {
  const { run, message, modal, t } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const showReasons = (check: SubmitCheck) =>
    modal.error({
      title: t('metadata.submit.title'),
      width: 560,
      content: (
        <ul style={{ paddingInlineStart: 20, margin: 0 }}>
          {check.msg.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ),
      okText: t('editor.close'),
    });

  return async (id: string, before?: () => Promise<void>) => {
    await before?.();
    const check = await run(() => metadataApi.checkSubmit(id));
    if (!check) return;
    if (check.status !== 'true') {
      showReasons(check);
      return;
    }
    const done = await run(() => metadataApi.submit(id));
    if (!done) return;
    if (done.status !== 'true') {
      showReasons(done);
      return;
    }
    message.success(t('metadata.submit.success'));
    await queryClient.invalidateQueries({ queryKey: ['metadata'] });
    navigate('/metadata/review');
  };
}

/** Return to Draft: a record in review goes back to its creator. */
export function useReturnToDraft() {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  return async (id: string) => {
    const done = await run(() => metadataApi.returnToDraft(id));
    if (!done) return false;
    message.success(done.msg || t('metadata.submit.returned'));
    await queryClient.invalidateQueries({ queryKey: ['metadata'] });
    return true;
  };
}
