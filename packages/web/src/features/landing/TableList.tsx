import { useTranslation } from 'react-i18next';
import { pageLanguage } from '../../app/i18n';
import { personalPath } from '../../app/site';
import { formatCount } from '../../components/format';
import { useRecordTables } from './api';
import { Section } from './sections';

/** Columns listed open; a wider table's columns are folded under their count. */
const OPEN_COLUMNS = 12;

/**
 * The record's data tables (issue 20), each with its columns (name in the page's language, field,
 * unit, type) and a link to the viewer in the personal centre, where its rows follow the record's
 * download rule. Nothing at all when the record has no tables (or they could not be read: the rest
 * of the page does not depend on them).
 */
export function TableList({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data: tables } = useRecordTables(id);
  if (!tables?.length) return null;
  return (
    <Section id="lp-tables" title={t('landing.sections.tables')}>
      {tables.map((table) => (
        <div key={table.code} className="lp-data-table">
          <h3>{table.name}</h3>
          <p className="lp-muted">
            {t('landing.tables.summary', { rows: formatCount(table.rows), columns: formatCount(table.columns.length) })}
            {' · '}
            <a href={personalPath(`/data/detailedDataDetail/${encodeURIComponent(id)}/${encodeURIComponent(table.code)}`)}>{t('landing.tables.open', { name: table.name })}</a>
          </p>
          <details open={table.columns.length <= OPEN_COLUMNS}>
            <summary>{t('landing.tables.columns', { count: formatCount(table.columns.length) })}</summary>
            <div className="lp-scroll">
              <table className="lp-table">
                <thead>
                  <tr>
                    <th scope="col">{t('landing.tables.name')}</th>
                    <th scope="col">{t('landing.tables.field')}</th>
                    <th scope="col">{t('landing.tables.unit')}</th>
                    <th scope="col">{t('landing.tables.type')}</th>
                  </tr>
                </thead>
                <tbody>
                  {table.columns.map((column) => (
                    <tr key={column.field}>
                      <td title={column.note || undefined}>{(pageLanguage === 'en' && column.display_name_en) || column.display_name}</td>
                      <td>
                        <code>{column.field}</code>
                      </td>
                      <td>{column.unit}</td>
                      <td>{t(`landing.tables.types.${column.type}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </div>
      ))}
    </Section>
  );
}
