import { Button } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tableSourceKind } from '@portal/shared';
import { lazyPage } from '../../../app/lazy';

const ImportDrawer = lazyPage(() => import('./ImportDrawer'));

/**
 * "Import as table" on a data file the import reads (.xlsx, .csv; the shared rule), for the editor's
 * file manager: the wizard's code is loaded when it is first opened, not with the editor.
 */
export function ImportAction({ metadataId, file }: { metadataId: string; file: { id: string; name: string } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!tableSourceKind(file.name)) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={t('tablesUi.import.actionOf', { name: file.name })}>
        {t('tablesUi.import.action')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ImportDrawer metadataId={metadataId} file={file} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
