import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { languageTag, type Language, type RecordSnapshot, type RoundSnapshot } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { formatDateTime } from '../../../components/format';
import { Coverage, Details, Documents, Funding, Keywords, Literature, People, Section, Terms } from '../../landing/sections';
import { textVersions } from '../../landing/landingData';
import { snapshotChanges, type SnapshotChange } from '../snapshotChanges';
import '../../landing/landing.css';

/**
 * The record as its creator submitted it for the review's round, drawn with the landing page's
 * own sections (people, keywords, coverage, details, references, funding, documents, thumbnail),
 * and from round 2 what changed since the round before (issue 16).
 */
export function SubmittedRecord({ current, previous }: { current: RoundSnapshot; previous: RoundSnapshot | null }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {previous && <Changes previous={previous} current={current} />}
      <Card size="small" title={<span style={{ whiteSpace: 'normal' }}>{t('review.ui.advice.submitted', { round: current.round })}</span>} data-testid="submitted-record">
        <Typography.Paragraph type="secondary">{t('review.ui.advice.submittedAt', { date: formatDateTime(current.taken_at) })}</Typography.Paragraph>
        <RecordAsLanding snapshot={current.snapshot} />
      </Card>
    </Space>
  );
}

function RecordAsLanding({ snapshot }: { snapshot: RecordSnapshot }) {
  const { t } = useTranslation();
  const { record } = snapshot;
  const versions = textVersions(record);
  const available = (Object.keys(versions) as Language[]).filter((language) => versions[language].title || versions[language].description);
  const [shown, setShown] = useState<Language>(available.includes(pageLanguage) ? pageLanguage : record.language);
  const text = versions[shown];
  const access: [string, ReactNode][] = [
    [t('landing.facts.license'), record.license],
    [t('landing.facts.sharing'), record.sharing_policy && t(`landing.options.sharingPolicy.${record.sharing_policy}`)],
    [t('landing.facts.protection'), record.protection_period && t(`landing.options.protectionPeriod.${record.protection_period}`)],
    [t('editor.fields.useTerm'), record.use_term],
    [t('editor.fields.citation'), record.citation],
  ];
  return (
    <article className="lp" aria-labelledby="lp-title">
      <header className="lp-header">
        <h2 id="lp-title" lang={languageTag(shown)} style={{ margin: '0 0 12px', fontSize: 22, lineHeight: 1.3 }}>
          {text.title || versions[record.language].title}
        </h2>
        {available.length > 1 && (
          <div className="lp-versions" role="group" aria-label={t('landing.versions.label')}>
            {available.map((language) => (
              <button key={language} type="button" lang={languageTag(language)} aria-pressed={language === shown} onClick={() => setShown(language)}>
                {t(`landing.versions.${language}`)}
              </button>
            ))}
          </div>
        )}
      </header>
      {snapshot.thumbnail && (
        <img className="lp-thumbnail" src={snapshot.thumbnail.image} alt={t('landing.thumbnail')} width={320} height={240} style={{ marginBottom: 20, maxWidth: 320 }} />
      )}
      <Section id="lp-abstract" title={t('landing.sections.abstract')}>
        {text.description ? (
          <div lang={languageTag(shown)}>
            {text.description.split(/\n+/).map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        ) : (
          <p className="lp-muted">{t('landing.noAbstract')}</p>
        )}
      </Section>
      <People links={snapshot.authors} />
      <Section id="lp-keywords" title={t('landing.sections.keywords')}>
        <Keywords links={snapshot.keywords} />
      </Section>
      <Coverage record={record} />
      <Details record={record} />
      {access.some(([, value]) => value) && (
        <Section id="lp-access" title={t('landing.sections.access')}>
          <Terms items={access} />
        </Section>
      )}
      <Section id="lp-literature" title={t('landing.sections.literature')}>
        <Literature citations={snapshot.literature} />
      </Section>
      <Section id="lp-funding" title={t('landing.sections.funding')}>
        <Funding funds={snapshot.funds} />
      </Section>
      <Section id="lp-documents" title={t('landing.sections.documents')}>
        <Documents files={snapshot.documents} />
      </Section>
    </article>
  );
}

/** Round 2 on: each changed field before and after, each list's additions and removals. */
function Changes({ previous, current }: { previous: RoundSnapshot; current: RoundSnapshot }) {
  const { t } = useTranslation();
  const changes = snapshotChanges(previous.snapshot, current.snapshot, (role) => t(`landing.options.authorRole.${role}`));
  const shown = (value: string) => value || t('review.ui.changes.empty');
  const describe = (change: SnapshotChange): ReactNode =>
    change.kind === 'text' ? (
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        <span>
          <Tag>{t('review.ui.changes.before')}</Tag>
          <del style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{shown(change.before)}</del>
        </span>
        <span>
          <Tag color="blue">{t('review.ui.changes.after')}</Tag>
          <ins style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', textDecoration: 'none' }}>{shown(change.after)}</ins>
        </span>
      </Space>
    ) : (
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        {change.added.map((entry, index) => (
          <span key={`added-${index}`}>
            <Tag color="green">{t('review.ui.changes.added')}</Tag>
            <span style={{ overflowWrap: 'anywhere' }}>{entry}</span>
          </span>
        ))}
        {change.removed.map((entry, index) => (
          <span key={`removed-${index}`}>
            <Tag color="red">{t('review.ui.changes.removed')}</Tag>
            <del style={{ overflowWrap: 'anywhere' }}>{entry}</del>
          </span>
        ))}
      </Space>
    );
  return (
    <Card size="small" title={t('review.ui.changes.title', { round: previous.round })} data-testid="record-changes">
      {changes.length ? (
        <>
          <Typography.Paragraph type="secondary">{t('review.ui.changes.intro', { round: previous.round })}</Typography.Paragraph>
          {/* Terms above their values: a long abstract beside its label squeezed the label on a phone. */}
          <Descriptions
            size="small"
            column={1}
            bordered
            layout="vertical"
            items={changes.map((change) => ({
              key: change.labelKey,
              label: change.kind === 'text' && change.language ? t(change.labelKey, { language: t(`review.ui.changes.languages.${change.language}`) }) : t(change.labelKey),
              children: describe(change),
            }))}
          />
        </>
      ) : (
        <Alert type="info" showIcon title={t('review.ui.changes.none')} />
      )}
    </Card>
  );
}
