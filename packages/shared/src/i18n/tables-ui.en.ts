/** The personal centre's screens for tables (issue 20): the import wizard, the list of tables and the viewer. */
export const tablesUiEn = {
  title: 'Data tables',
};
