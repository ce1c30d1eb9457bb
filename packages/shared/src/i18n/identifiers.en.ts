/** Identifiers of people, organisations and funders (issue 17): the editor's fields and their errors. */
export const identifiersEn = {
  orcid: 'ORCID iD',
  orcidHelp: 'e.g. 0000-0002-1825-0097 or https://orcid.org/0000-0002-1825-0097',
  orcidInvalid:
    'This is not an ORCID iD: 16 characters such as 0000-0002-1825-0097 (or its address https://orcid.org/…), the last one checking the others. Please check each digit.',
  affiliationRor: 'ROR ID of the affiliation',
  rorHelp: 'e.g. https://ror.org/03yrm5c26',
  rorInvalid: 'This is not a ROR ID: https://ror.org/ and 9 characters such as 03yrm5c26, the last two checking the others. Please copy it from ror.org.',
  funder: 'Funder identifier',
  funderHelp: "A Crossref Funder ID (10.13039/…) or the funder's ROR ID (https://ror.org/…)",
  funderInvalid: 'This is neither a Crossref Funder ID (10.13039/ and digits) nor a ROR ID (https://ror.org/ and 9 characters whose last two check the others).',
  edit: 'Identifiers',
  editTitle: 'Identifiers of {{name}}',
  saved: 'Identifiers saved.',
};
