import { Alert, Button, Checkbox, Drawer, Flex, Form, Input, InputNumber, Result, Select, Spin, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HEADER_ROWS_MAX, tableImportProblem, type TableImportProblem } from '@portal/shared';
import { ApiError } from '../../../api/client';
import { refusal } from '../../../api/form';
import { formatCount } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { tablesApi, tablesKeys, viewerPath, type TableColumn, type TableImport, type TableImportBody } from '../api';
import { ColumnEditor } from './ColumnEditor';
import { RejectedReport } from './RejectedReport';

export interface ImportDrawerProps {
  metadataId: string;
  /** The record's data file to read: an .xlsx workbook or a CSV file. */
  file: { id: string; name: string };
  onClose: () => void;
}

/** A file's name without its extension: the table's name proposed. */
const baseName = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`import-step-${n}`} style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Typography.Title level={2} id={`import-step-${n}`} style={{ fontSize: 16, margin: 0 }}>
        {`${n}. ${title}`}
      </Typography.Title>
      {children}
    </section>
  );
}

/**
 * Excel to table (spec sections 2, 3 and 5 "Excel import"; issue 20): a sheet of the file, the
 * header's rows and the table's name; the header fields fetched and the proposed columns edited;
 * a dry run listing the cells that do not fit their types, so that the provider changes a type or
 * accepts empty values; then the table is made. The shared rule is checked before each call, in the
 * spec's order, and the server's refusals are shown in its words. Full-screen on a phone.
 */
export default function ImportDrawer({ metadataId, file, onClose }: ImportDrawerProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: ['tables', 'info', file.id], queryFn: () => tablesApi.info(file.id), retry: false });
  const sheets = info.data?.sheets ?? [];
  const [chosenSheet, setSheet] = useState<string | undefined>();
  // A file of one sheet (every CSV) has it chosen already.
  const sheet = chosenSheet ?? (sheets.length === 1 ? sheets[0]!.name : undefined);
  const [headerRows, setHeaderRows] = useState<number | null>(1);
  const [tableName, setTableName] = useState(baseName(file.name));
  const [columns, setColumns] = useState<TableColumn[] | null>(null);
  const [acceptEmpty, setAcceptEmpty] = useState(false);
  const [report, setReport] = useState<TableImport | null>(null);
  const [created, setCreated] = useState<TableImport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'header' | 'check' | 'create' | null>(null);

  const body: TableImportBody = { file: file.id, sheet, header_rows: headerRows ?? undefined, table_name: tableName, columns: columns ?? [], accept_empty: acceptEmpty };
  const say = (found: TableImportProblem) => setProblem(t(found.key, found.params));

  /** The header is read anew for another sheet or header: what was fetched and checked before no longer holds. */
  const forgetHeader = () => {
    setColumns(null);
    setReport(null);
    setProblem(null);
  };

  const run = async (step: 'header' | 'check' | 'create', work: () => Promise<void>) => {
    setBusy(step);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      // A refused import answers its report with the message: the cells are listed where the dry run lists them.
      if (error instanceof ApiError && Array.isArray(error.reply.rejected)) setReport(error.reply as unknown as TableImport);
      setProblem(refusal(error, t('errors.formGeneric')));
    } finally {
      setBusy(null);
    }
  };

  const fetchHeader = () => {
    // The form's rules up to the header, as the server checks them for this call.
    const found = tableImportProblem({ ...body, table_name: '-', columns: [] });
    if (found && found.field !== 'columns') return say(found);
    void run('header', async () => {
      setColumns(await tablesApi.columns(file.id, sheet!, headerRows!));
      setReport(null);
    });
  };

  const submit = (dryRun: boolean) => {
    const found = tableImportProblem(body);
    if (found) return say(found);
    void run(dryRun ? 'check' : 'create', async () => {
      const result = await tablesApi.importTable(body, dryRun);
      setReport(result);
      if (!dryRun) {
        setCreated(result);
        await queryClient.invalidateQueries({ queryKey: tablesKeys.all });
      }
    });
  };

  const sheetLabel = (one: { name: string; rows: number; columns: number }) =>
    t('tablesUi.import.sheetOption', { name: one.name, rows: formatCount(one.rows), columns: formatCount(one.columns) });

  let content: ReactNode;
  if (created) {
    content = (
      <Result
        status="success"
        title={t('tablesUi.import.created', { name: tableName.trim(), count: created.rows, countText: formatCount(created.rows) })}
        subTitle={created.rejected_count > 0 ? t('tablesUi.import.createdEmpty', { count: created.rejected_count, countText: formatCount(created.rejected_count) }) : undefined}
        extra={
          <Flex gap={8} wrap justify="center">
            {/* A hash route of the personal centre, which holds the editor too. */}
            <Button type="primary" href={`#${viewerPath(metadataId, created.code!)}`} onClick={onClose}>
              {t('tablesUi.import.openTable')}
            </Button>
            <Button onClick={onClose}>{t('tablesUi.import.close')}</Button>
          </Flex>
        }
      />
    );
  } else if (info.isPending) {
    content = <Spin />;
  } else if (info.isError) {
    content = <Alert type="error" showIcon role="alert" title={refusal(info.error, t('tablesUi.loadFailed'))} />;
  } else {
    content = (
      <Flex vertical gap={24}>
        <Step n={1} title={t('tablesUi.import.stepSheet')}>
          <Form layout="vertical" component="div" style={{ maxWidth: 560 }}>
            <Form.Item label={t('tablesUi.import.sheet')} htmlFor="import-sheet" required>
              <Select
                id="import-sheet"
                value={sheet}
                placeholder={t('tablesUi.import.sheetPlaceholder')}
                options={sheets.map((one) => ({ value: one.name, label: sheetLabel(one) }))}
                onChange={(value) => {
                  setSheet(value);
                  forgetHeader();
                }}
              />
            </Form.Item>
            <Form.Item label={t('tablesUi.import.headerRows')} htmlFor="import-header-rows" required extra={t('tablesUi.import.headerRowsHint', { max: HEADER_ROWS_MAX })}>
              <InputNumber
                id="import-header-rows"
                min={1}
                max={HEADER_ROWS_MAX}
                precision={0}
                value={headerRows}
                onChange={(value) => {
                  setHeaderRows(value);
                  forgetHeader();
                }}
              />
            </Form.Item>
            <Form.Item label={t('tablesUi.import.tableName')} htmlFor="import-table-name" required>
              <Input id="import-table-name" value={tableName} onChange={(event) => setTableName(event.target.value)} />
            </Form.Item>
            <Button onClick={fetchHeader} loading={busy === 'header'} disabled={busy !== null}>
              {t('tablesUi.import.fetchHeader')}
            </Button>
          </Form>
        </Step>
        {columns && (
          <Step n={2} title={t('tablesUi.import.stepColumns')}>
            <Typography.Text type="secondary">{t('tablesUi.import.columnsHint')}</Typography.Text>
            <ColumnEditor
              columns={columns}
              onChange={(next) => {
                setColumns(next);
                setReport(null);
              }}
            />
          </Step>
        )}
        <Step n={columns ? 3 : 2} title={t('tablesUi.import.stepCreate')}>
          {!columns && <Typography.Text type="secondary">{t('tablesUi.import.fetchFirst')}</Typography.Text>}
          {report && <RejectedReport report={report} columns={columns ?? []} />}
          <Checkbox checked={acceptEmpty} onChange={(event) => setAcceptEmpty(event.target.checked)}>
            {t('tablesUi.import.acceptEmpty')}
          </Checkbox>
          {problem && <Alert type="error" showIcon role="alert" title={problem} />}
          {busy === 'check' || busy === 'create' ? <Typography.Text type="secondary">{t('tablesUi.import.reading')}</Typography.Text> : null}
          <Flex gap={8} wrap>
            <Button onClick={() => submit(true)} loading={busy === 'check'} disabled={busy !== null}>
              {t('tablesUi.import.check')}
            </Button>
            <Button type="primary" onClick={() => submit(false)} loading={busy === 'create'} disabled={busy !== null}>
              {t('tablesUi.import.create')}
            </Button>
          </Flex>
        </Step>
      </Flex>
    );
  }

  return (
    <Drawer open onClose={onClose} title={t('tablesUi.import.title', { name: file.name })} size={isPhone ? '100%' : 1040} destroyOnHidden maskClosable={false}>
      {content}
    </Drawer>
  );
}
