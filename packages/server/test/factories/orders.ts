import { EN, tokenHeader, type TestPortal } from '../helpers.js';
import type { Person } from './users.js';

/** The applicant's form of a data order (English). */
export const ORDER_FORM_EN = {
  realName: 'Ada Applicant',
  email: 'ada.applicant@example.org',
  phone: '+86 10 6000 0000',
  zipcode: '100101',
  affiliation: 'Institute of Polar Studies',
  address: '1 Ice Road, Beijing',
  country: 'NO',
  reason: 'Validating a sea-ice model against observations for a thesis chapter.',
};

/** A data order as the applicant makes it (through the API: basket, then application); answers the reply. */
export async function buildOrder(portal: TestPortal, applicant: Person, recordIds: string[], form: Record<string, unknown> = ORDER_FORM_EN) {
  const post = async (url: string, payload: Record<string, unknown>) => {
    const response = await portal.app.inject({ method: 'POST', url, headers: { ...tokenHeader(applicant.token), ...EN }, payload });
    if (response.statusCode !== 201) throw new Error(`expected 201 from ${url}, got ${response.statusCode}: ${response.body}`);
    return response.json();
  };
  const line = [];
  for (const id of recordIds) line.push((await post('/api/account/line_item/', { metadata_id: id })).id);
  return post('/api/account/order/', { ...form, line });
}
