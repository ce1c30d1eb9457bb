/** The personal centre's screens of the analysis library (issue 20): my methods, explore, share, run. */
export const analysisUiEn = {
  title: 'Analysis methods',
};
