-- Vector scan choice (exact or index scan?): vectorRowCount (libs/search/src/ranking.sql.ts), run by RankingRepository.countVectors
SELECT count(*)::int AS n FROM (SELECT 1 FROM memories WHERE embedding_model = 'nomic-embed-text'
       LIMIT 1954) s;
