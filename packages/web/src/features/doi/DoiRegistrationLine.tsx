import { Flex, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { personalPath } from '../../app/site';
import { doiApi, doiKeys } from './api';
import { registrationState, STATE_COLORS } from './registrationState';

/**
 * One line of a record's staff view (the review desk's panel): where its DOI stands with DataCite,
 * and the way to the list of registrations. Nothing when the record has no DOI the portal registers
 * (or no DataCite account is configured).
 */
export function DoiRegistrationLine({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: doiKeys.record(id), queryFn: () => doiApi.record(id) });
  if (!data?.configured || !data.registrations.length) return null;
  return (
    <Flex wrap gap={8} align="center" data-testid="doi-registration-line" style={{ overflowWrap: 'anywhere' }}>
      <Typography.Text strong>{t('doi.ui.line')}</Typography.Text>
      {data.registrations.map((row) => {
        const state = registrationState(row);
        return (
          <Flex key={row.doi} wrap gap={6} align="center">
            <Typography.Text code>{row.doi}</Typography.Text>
            <Tag color={STATE_COLORS[state]} data-state={state}>
              {t(`doi.ui.states.${state}`)}
            </Tag>
            {row.problem && <Typography.Text type="secondary">{row.problem}</Typography.Text>}
          </Flex>
        );
      })}
      <a href={personalPath('/review/doi-registrations')}>{t('doi.ui.openList')}</a>
    </Flex>
  );
}
