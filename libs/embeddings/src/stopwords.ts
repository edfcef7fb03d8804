/**
 * English function words that carry no topic. Kept close to PostgreSQL's `english`
 * text-search stop list so the keyword and vector sides agree on what a query is about.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between
  both but by can did do does doing don down during each few for from further had has have having he her here
  hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
  off on once only or other our ours ourselves out over own same she should so some such than that the their
  theirs them themselves then there these they this those through to too under until up very was we were what
  when where which while who whom why will with would you your yours yourself yourselves s t d ll m o re ve y
  im ive id youre dont doesnt didnt isnt wasnt arent cant could also get got like one us lets`
    .split(/\s+/)
    .filter(Boolean),
);
