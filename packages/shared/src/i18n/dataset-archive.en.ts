/** Whole datasets (issue 19): a published record's archive and an order's HTTP index. */
export const datasetArchiveEn = {
  disabled: 'Whole-dataset archives are not offered on this portal (ARCHIVE_ENABLED is off).',
  onlyPublished: 'Only a published dataset has a whole-dataset archive.',
  notReady: 'The archive of this dataset is being prepared. Try again in a few minutes.',
  failed: 'The archive of this dataset could not be built; it will be tried again. Meanwhile download its files one by one or through the HTTP index.',
  tooLarge: 'This dataset holds more than {{limit}} of data, too much for one archive: download its folders through the HTTP index of your order or by FTP.',
  indexTitle: 'Index of {{path}}',
  parent: 'Parent folder',
  empty: 'This folder is empty.',
  noEntry: 'There is no such file or folder in this order’s datasets.',
  /** The order page's "download everything" (personal centre). */
  ui: {
    title: 'Download everything',
    intro: 'Each dataset as one zip of all its files in their folders, with a SHA-256 manifest. The download resumes if it is cut.',
    download: 'Download everything ({{size}})',
    downloadFor: 'Download everything of {{title}} ({{size}})',
    files: '{{n}} files, {{size}} of data',
    preparing: 'The archive is being prepared; this page shows it when it is ready.',
    indexIntro: 'Or fetch every dataset’s folders from a command line (the address is valid while the order is):',
    unavailable: 'The archive cannot be shown now.',
  },
};
