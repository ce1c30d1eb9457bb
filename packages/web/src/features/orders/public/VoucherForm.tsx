import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/**
 * The verification code typed in, checked at `/voucher/{code}` (the server finds a code in any case
 * and with or without its dashes). Plain HTML: the public pages load no Ant Design.
 */
export function VoucherForm({ initial = '' }: { initial?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [code, setCode] = useState(initial);
  const [missing, setMissing] = useState(false);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) return setMissing(true);
    setMissing(false);
    navigate(`/voucher/${encodeURIComponent(typed)}`);
  };
  return (
    <form className="vc-form" role="search" aria-label={t('voucherCheck.form.label')} onSubmit={handleSubmit} noValidate>
      <label htmlFor={`${id}-code`}>{t('voucherCheck.form.code')}</label>
      <div className="vc-form-row">
        <input
          id={`${id}-code`}
          name="code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          placeholder={t('voucherCheck.form.placeholder')}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${id}-error` : undefined}
        />
        <button type="submit" className="button button-primary">
          {t('voucherCheck.form.submit')}
        </button>
      </div>
      {missing && (
        <p id={`${id}-error`} className="vc-form-error" role="alert">
          {t('voucherCheck.form.required')}
        </p>
      )}
    </form>
  );
}
