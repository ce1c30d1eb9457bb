import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const LABEL_COLORS: Record<string, string> = {
  pass: 'green',
  publishedWithoutReview: 'green',
  pass_after_modification: 'gold',
  review_after_modification: 'orange',
  no_pass: 'red',
  waitingExperts: 'blue',
  waitingLeader: 'purple',
  leaderNotReviewed: 'purple',
};

/** A reviewer status label of spec section 4, in words. */
export function LabelTag({ label }: { label: string | null | undefined }) {
  const { t } = useTranslation();
  if (!label) return null;
  return <Tag color={LABEL_COLORS[label]}>{t(`review.labels.${label}`)}</Tag>;
}
