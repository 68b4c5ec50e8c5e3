// Four long paragraphs of plain English prose (a field report), for tests that need pages of
// wrapped lines: each paragraph runs over several lines at any usual size and width.

export const FIELD_REPORT = [
  'The measurements were taken over three seasons in the northern plots, and every plot was sampled at the same hour of the morning so that the readings stay comparable from one week to the next. The gauges were read by two people at a time, one reading and one writing, and the two changed places every week so that neither read the same plot twice in a row.',
  'A storm in the fourth week of the second season flooded the lower plots, and the gauges there were read again once the water had drained, two days later than the others. The readings of those two days are marked in the tables, and the mean of each plot is given with them and without them, so that a reader can judge how much they weigh.',
  'The drainage ditch beside the third plot was dug again after the first season, which moved the plot four metres to the east and onto ground that had not been sown before. Its readings from the first season and those from the later ones are therefore kept apart in every table, and the plot is counted as two plots in the means of the report.',
  'Every table of this report gives the mean of the three seasons, with the spread of the readings beside it, and the appendix lists each reading with the date it was taken. Readings that were taken twice are given once, as the mean of the two, and the appendix gives both of them with a note on why the plot was read again that week.',
];
