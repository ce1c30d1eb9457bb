/** DOI registration with DataCite (issue 17): what staff read of it. */
export const doiEn = {
  notConfigured: 'No DataCite account is configured (DATACITE_PREFIX, DATACITE_USER, DATACITE_PASSWORD): DOIs are neither assigned nor registered.',
  noRegistration: 'This record has no DOI that the data centre registers.',
  problem: {
    noReply: 'DataCite did not answer (timeout or network); it will be tried again.',
    credentials: 'DataCite refused the repository account ({{status}}): check DATACITE_USER and DATACITE_PASSWORD.',
    notFound: 'DataCite does not know this address (404): check DATACITE_API.',
    refused: 'DataCite refused the DOI or its metadata (422); its reasons are listed.',
    unavailable: 'DataCite failed ({{status}}); it will be tried again.',
    other: 'DataCite answered {{status}}.',
  },
};
