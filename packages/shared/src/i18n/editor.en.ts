/** Texts of the metadata editor and the metadata lists of the personal centre (web only). */
export const editorEn = {
  addTitle: 'New metadata',
};
