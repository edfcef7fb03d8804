import { type components } from '../api/openapi';

export type Explanation = NonNullable<components['schemas']['RecallResultDto_Output']['results'][number]['explain']>;
type Signal = NonNullable<Explanation['keyword']>;

const number = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(4));
const factor = (value: number) => `× ${value.toFixed(3)}`;

/**
 * How one search result was ranked (DESIGN §5): each ranker's rank, raw score and what it added
 * to the fused score, the bounded boosts that multiply it, and the final score. Numbers carry
 * the meaning; the bars beside contributions only repeat them for a quick look.
 */
export function ExplainTable({ explain, label }: { readonly explain: Explanation; readonly label: string }) {
  const bar = (value: number) =>
    explain.fused > 0 ? (
      <meter className="contribution-bar" min={0} max={explain.fused} value={value} aria-hidden="true" />
    ) : null;
  const signal = (name: string, value: Signal | undefined) => (
    <tr>
      <th scope="row">{name}</th>
      {value ? (
        <>
          <td>{value.rank}</td>
          <td>{number(value.score)}</td>
          <td>
            + {number(value.contribution)} {bar(value.contribution)}
          </td>
        </>
      ) : (
        <td colSpan={3}>not among this ranker's candidates</td>
      )}
    </tr>
  );
  const { boosts } = explain;
  return (
    <table className="table explain">
      <caption>{label}</caption>
      <thead>
        <tr>
          <th scope="col">Signal</th>
          <th scope="col">Rank</th>
          <th scope="col">Score</th>
          <th scope="col">Contribution</th>
        </tr>
      </thead>
      <tbody>
        {signal('Keyword', explain.keyword)}
        {signal('Semantic', explain.semantic)}
        {explain.temporal && (
          <tr>
            <th scope="row">Dates in the query</th>
            <td>—</td>
            <td>closeness {number(explain.temporal.closeness)}</td>
            <td>
              + {number(explain.temporal.added)}
              {explain.temporal.order !== 1 && `, order ${factor(explain.temporal.order)}`}
            </td>
          </tr>
        )}
        <tr>
          <th scope="row">Fused</th>
          <td colSpan={2}>sum of the contributions</td>
          <td>= {number(explain.fused)}</td>
        </tr>
        <tr>
          <th scope="row">Boosts</th>
          <td colSpan={2}>
            importance {factor(boosts.importance)}, recency {factor(boosts.recency)}, confidence{' '}
            {factor(boosts.confidence)}, pinned {factor(boosts.pinned)}
          </td>
          <td>{factor(boosts.importance * boosts.recency * boosts.confidence * boosts.pinned)}</td>
        </tr>
        {explain.rerank && (
          <tr>
            <th scope="row">Reranker</th>
            <td>
              {explain.rerank.rank} (was {explain.rerank.fusedRank})
            </td>
            <td>{number(explain.rerank.score)}</td>
            <td>reorders only</td>
          </tr>
        )}
        <tr>
          <th scope="row">Final</th>
          <td colSpan={2}>orders the results</td>
          <td>= {number(explain.final)}</td>
        </tr>
        {explain.relevance && (
          <tr>
            <th scope="row">Relevance inputs</th>
            <td colSpan={3}>
              terms covered {number(explain.relevance.coverage)}, cosine{' '}
              {explain.relevance.cosine === null ? 'none (no vector)' : number(explain.relevance.cosine)}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
