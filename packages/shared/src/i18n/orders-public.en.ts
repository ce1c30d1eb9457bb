/** Orders on the public pages (plain React, public catalogue): the data cart button, download access, voucher verification. */
export const dataCartEn = {
  add: 'Add to data cart',
  addLabel: 'Add to data cart: {{title}}',
  adding: 'Adding…',
  added: 'Added to the data cart.',
  openBasket: 'Open the data cart',
  failed: 'Something went wrong! Please try again later',
  access: {
    ok: 'You may download the data of this dataset.',
    openDownload: 'Go to the download page',
    login: 'Sign in to download data.',
    embargo: 'This dataset is in its protection period: its data can be ordered and downloaded from {{date}}.',
    order: 'Apply for this dataset to download its data: add it to the data cart, then apply.',
    waiting: 'Your application for this dataset is under review.',
    notPublished: 'This dataset is not published: its data cannot be ordered.',
  },
};

export const voucherCheckEn = {
  title: 'Data download voucher',
  valid: 'Voucher {{code}} is valid.',
  invalid: 'Voucher {{code}} no longer holds: its order has been deleted.',
  expired: 'Voucher {{code}} no longer holds: its order expired on {{date}}.',
  notFound: 'No voucher has the verification code {{code}}.',
  loadFailed: 'The voucher could not be checked.',
  retry: 'Try again',
  applicant: 'Granted to',
  approvedBy: 'Approved by',
  approvedAt: 'Approved on',
  validUntil: 'Valid until',
  noExpiry: 'No end date',
  datasets: 'Datasets',
  citation: 'Cite as',
  license: 'Licence',
};
