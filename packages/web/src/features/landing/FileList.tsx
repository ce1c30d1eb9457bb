import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatBytes, formatCount } from '../../components/format';
import { FILES_PAGE_SIZE, useFilePage } from './api';

/** The address's `files` parameter: the page of the file list shown (1 when absent or not a page number). */
const FILES_PARAMETER = 'files';

/**
 * The data files, a page of 20 at a time (a record may hold thousands): names and sizes of the page,
 * the count and the bytes of all of them from the server. The page is kept in the address (`?files=2`).
 * No downloading here: data files are shared through the sharing policy and orders.
 */
export function FileList({ id }: { id: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get(FILES_PARAMETER) ?? '1');
  const page = Number.isInteger(asked) && asked >= 1 ? asked : 1;
  const files = useFilePage(id, page, true);

  if (files.isPending) return <p className="lp-muted" aria-busy="true" />;
  if (files.isError) {
    return (
      <p role="alert">
        {t('landing.files.loadFailed')}{' '}
        <button type="button" className="button" onClick={() => void files.refetch()}>
          {t('landing.retry')}
        </button>
      </p>
    );
  }
  const { count, total_size: totalSize, results } = files.data;
  if (count === 0) return <p className="lp-muted">{t('landing.files.none')}</p>;
  const last = Math.max(1, Math.ceil(count / FILES_PAGE_SIZE));
  const go = (next: number) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === 1) changed.delete(FILES_PARAMETER);
        else changed.set(FILES_PARAMETER, String(next));
        return changed;
      },
      { replace: true, preventScrollReset: true },
    );
  return (
    <div className="lp-files">
      <p className="lp-files-summary">
        {count === 1 ? t('landing.files.summaryOne', { size: formatBytes(totalSize) }) : t('landing.files.summary', { count: formatCount(count), size: formatBytes(totalSize) })}
      </p>
      <table className="lp-table" aria-busy={files.isPlaceholderData}>
        <thead>
          <tr>
            <th scope="col">{t('landing.files.name')}</th>
            <th scope="col" className="lp-number">
              {t('landing.files.size')}
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((file) => (
            <tr key={file.id}>
              <td className="lp-file-name">{file.name}</td>
              <td className="lp-number">{formatBytes(file.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {last > 1 && (
        <nav className="lp-pager" aria-label={t('landing.files.pages')}>
          <button type="button" className="button" disabled={page <= 1} onClick={() => go(Math.min(page - 1, last))}>
            {t('landing.files.previous')}
          </button>
          <span aria-live="polite">{t('landing.files.page', { page: formatCount(Math.min(page, last)), last: formatCount(last) })}</span>
          <button type="button" className="button" disabled={page >= last} onClick={() => go(page + 1)}>
            {t('landing.files.next')}
          </button>
        </nav>
      )}
    </div>
  );
}
