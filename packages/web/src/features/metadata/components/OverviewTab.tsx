import { Alert } from 'antd';
import { PageSpinner } from '../../../components/PageSpinner';
import type { EditorTabProps } from '../api';
import { useFreshTranslations, type EditorSession } from './editorSession';
import { OverviewForm } from './OverviewForm';
import { RecordDocument } from './RecordDocument';
import { useFeedback } from './useFeedback';

type OverviewProps = EditorTabProps & { session: EditorSession };

/**
 * Overview: the record's fields, saved explicitly or automatically once the title is filled in
 * (spec section 4). The English title and abstract of a Chinese record are its `en` translation,
 * which the Translations tab edits too: it is read afresh whenever the tab opens.
 */
export function OverviewTab(props: OverviewProps) {
  const { t } = useFeedback();
  const chinese = props.record.language === 'zh-hans';
  const { translations, ready, error } = useFreshTranslations(props.record.id, props.session, chinese);
  if (!ready) return <PageSpinner />;
  if (error) return <Alert type="error" showIcon title={error.message || t('errors.formGeneric')} />;
  const english = chinese ? translations.find((row) => row.language === 'en') : undefined;
  if (props.readOnly) return <RecordDocument record={props.record} english={english} />;
  return <OverviewForm {...props} english={english} />;
}
