{{/* Names, labels and shared pod fragments. */}}

{{- define "cairn.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cairn.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "cairn.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of one component: (dict "ctx" $ "component" "api"). */}}
{{- define "cairn.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cairn.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cairn.labels" -}}
helm.sh/chart: {{ include "cairn.chart" .ctx }}
{{ include "cairn.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: cairn
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- end -}}

{{- define "cairn.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "cairn.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The apps' image, pulled by digest (repository@sha256:…): a tag can be moved to other contents, a
digest cannot, so every pod of a release runs the bytes that were built, scanned and signed. A tag
alone is refused unless image.allowMutableTag=true (local and evaluation clusters).
*/}}
{{- define "cairn.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else if .Values.image.allowMutableTag -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- else -}}
{{- fail "image.digest is required: set it to the sha256:… digest your registry gave the pushed image (docker push / docker buildx build --push print it; crane digest <image>), or set image.allowMutableTag=true to run a mutable tag (evaluation only)" -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding credentials: the operator's or the chart's. */}}
{{- define "cairn.secretName" -}}
{{- default (include "cairn.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
A generated credential, created once per render and kept across upgrades: reuses the value
already stored in the named Secret (lookup), else generates one. Memoized in .Values so every
template of one render (e.g. the app Secret and the migration hook Secret) sees the same value.
(dict "ctx" $ "secret" "name" "key" "KEY" "memo" "memoKey" "generate" "alnum|base64")
*/}}
{{- define "cairn.generated" -}}
{{- $memo := .ctx.Values.secrets -}}
{{- $key := printf "_generated_%s" .memo -}}
{{- if not (hasKey $memo $key) -}}
{{- $value := "" -}}
{{- $existing := lookup "v1" "Secret" .ctx.Release.Namespace .secret -}}
{{- if and $existing (hasKey (default dict $existing.data) .key) -}}
{{- $value = index $existing.data .key | b64dec -}}
{{- else if eq .generate "base64" -}}
{{- $value = randBytes 32 -}}
{{- else -}}
{{- $value = randAlphaNum 48 -}}
{{- end -}}
{{- $_ := set $memo $key $value -}}
{{- end -}}
{{- index $memo $key -}}
{{- end -}}

{{- define "cairn.postgresql.fullname" -}}{{ include "cairn.fullname" . }}-postgresql{{- end -}}
{{- define "cairn.cnpg.fullname" -}}{{ include "cairn.fullname" . }}-pg{{- end -}}
{{- define "cairn.redis.fullname" -}}{{ include "cairn.fullname" . }}-redis{{- end -}}
{{- define "cairn.ollama.fullname" -}}{{ include "cairn.fullname" . }}-ollama{{- end -}}

{{- define "cairn.postgresql.password" -}}
{{- if .Values.postgresql.auth.password -}}{{ .Values.postgresql.auth.password }}{{- else -}}
{{- include "cairn.generated" (dict "ctx" . "secret" (include "cairn.postgresql.fullname" .) "key" "password" "memo" "postgresql" "generate" "alnum") -}}
{{- end -}}
{{- end -}}

{{/* The CloudNativePG app user's password: given, or generated once and kept in <release>-cairn-pg-app. */}}
{{- define "cairn.cnpg.password" -}}
{{- $c := .Values.postgresql.cloudnativepg -}}
{{- if $c.password -}}{{ $c.password }}{{- else -}}
{{- include "cairn.generated" (dict "ctx" . "secret" (printf "%s-app" (include "cairn.cnpg.fullname" .)) "key" "password" "memo" "cnpg" "generate" "alnum") -}}
{{- end -}}
{{- end -}}

{{/* postgresql:// URL of the CloudNativePG app user on a service of the Cluster (`-rw`) or its Pooler. */}}
{{- define "cairn.cnpg.url" -}}
{{- $c := .ctx.Values.postgresql.cloudnativepg -}}
{{- printf "postgresql://%s:%s@%s-%s:5432/%s" $c.owner (include "cairn.cnpg.password" .ctx | urlquery) (include "cairn.cnpg.fullname" .ctx) .service $c.database -}}
{{- end -}}

{{- define "cairn.redis.password" -}}
{{- if .Values.redis.auth.password -}}{{ .Values.redis.auth.password }}{{- else -}}
{{- include "cairn.generated" (dict "ctx" . "secret" (include "cairn.redis.fullname" .) "key" "password" "memo" "redis" "generate" "alnum") -}}
{{- end -}}
{{- end -}}

{{/* DATABASE_URL when the chart owns the Secret. */}}
{{- define "cairn.databaseUrl" -}}
{{- if and .Values.postgresql.enabled .Values.postgresql.cloudnativepg.enabled -}}
{{- fail "postgresql.enabled and postgresql.cloudnativepg.enabled exclude each other: choose the bundled PostgreSQL or a CloudNativePG Cluster" -}}
{{- else if .Values.postgresql.cloudnativepg.enabled -}}
{{- include "cairn.cnpg.url" (dict "ctx" . "service" "pooler-rw") -}}
{{- else if .Values.postgresql.enabled -}}
{{- $a := .Values.postgresql.auth -}}
{{- printf "postgresql://%s:%s@%s:5432/%s" $a.username (include "cairn.postgresql.password" . | urlquery) (include "cairn.postgresql.fullname" .) $a.database -}}
{{- else -}}
{{- required "secrets.databaseUrl (or secrets.existingSecret, or postgresql.enabled) is required" .Values.secrets.databaseUrl -}}
{{- end -}}
{{- end -}}

{{/* The direct (primary) URL, for what a transaction-mode pooler cannot carry: the migration's
session advisory lock, LISTEN. The same as DATABASE_URL unless CloudNativePG's Pooler is in front. */}}
{{- /* Straight to PostgreSQL: CloudNativePG's primary (-rw), else secrets.databaseDirectUrl, else DATABASE_URL itself. */}}
{{- define "cairn.databaseDirectUrl" -}}
{{- if .Values.postgresql.cloudnativepg.enabled -}}
{{- include "cairn.cnpg.url" (dict "ctx" . "service" "rw") -}}
{{- else if .Values.secrets.databaseDirectUrl -}}
{{- .Values.secrets.databaseDirectUrl -}}
{{- else -}}
{{- include "cairn.databaseUrl" . -}}
{{- end -}}
{{- end -}}

{{- define "cairn.redisUrl" -}}
{{- if .Values.redis.enabled -}}
{{- printf "redis://:%s@%s:6379" (include "cairn.redis.password" . | urlquery) (include "cairn.redis.fullname" .) -}}
{{- else -}}
{{- required "secrets.redisUrl (or secrets.existingSecret, or redis.enabled) is required" .Values.secrets.redisUrl -}}
{{- end -}}
{{- end -}}

{{/* OLLAMA_URL: the in-chart server, an external endpoint, or config.OLLAMA_URL. */}}
{{- define "cairn.ollamaUrl" -}}
{{- if .Values.ollama.externalUrl -}}{{ .Values.ollama.externalUrl }}
{{- else if .Values.ollama.enabled -}}{{ printf "http://%s:%d" (include "cairn.ollama.fullname" .) (int .Values.ollama.service.port) }}
{{- else -}}{{ .Values.config.OLLAMA_URL }}
{{- end -}}
{{- end -}}

{{/* Long enough for preStop, the apps' drain and their own shutdown deadline, with a margin for exit. */}}
{{- define "cairn.terminationGracePeriodSeconds" -}}
{{- add (div (add (int .Values.config.SHUTDOWN_TIMEOUT_MS) (int (.Values.config.SHUTDOWN_DRAIN_MS | default 0)) 999) 1000) (int .Values.preStopSleepSeconds) 5 -}}
{{- end -}}

{{/* Hook migrations before install need an external database; the in-chart one (or the CloudNativePG Cluster) exists only after. */}}
{{- define "cairn.migrationHook" -}}
{{- if or .Values.postgresql.enabled .Values.postgresql.cloudnativepg.enabled -}}post-install,pre-upgrade{{- else -}}pre-install,pre-upgrade{{- end -}}
{{- end -}}

{{- define "cairn.checksum" -}}
{{- $cm := include (print .Template.BasePath "/configmap.yaml") . -}}
{{- $secret := include (print .Template.BasePath "/secret.yaml") . -}}
checksum/config: {{ print $cm $secret | sha256sum }}
{{- end -}}

{{/* Credentials as env entries from the Secret; the admin token and the OIDC client secrets go to the api only. */}}
{{- define "cairn.secretEnv" -}}
{{- $ctx := .ctx -}}
{{- $name := include "cairn.secretName" $ctx -}}
{{- $k := $ctx.Values.secrets.keys -}}
- name: DATABASE_URL
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.databaseUrl }} } }
- name: DATABASE_CLUSTERS
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.databaseClusters }}, optional: true } }
- name: DATABASE_DIRECT_URL
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.databaseDirectUrl }}, optional: true } }
{{- if ne .app "migrate" }}
- name: REDIS_URL
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.redisUrl }} } }
- name: CAIRN_MASTER_KEY
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.masterKey }} } }
- name: CAIRN_MASTER_KEY_PREVIOUS
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.previousMasterKey }}, optional: true } }
- name: OPENAI_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.openaiApiKey }}, optional: true } }
- name: RERANK_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.rerankApiKey }}, optional: true } }
{{- end }}
{{- if eq .app "api" }}
- name: CAIRN_ADMIN_TOKEN
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.adminToken }} } }
- name: OIDC_CLIENT_SECRETS
  valueFrom: { secretKeyRef: { name: {{ $name }}, key: {{ $k.oidcClientSecrets }}, optional: true } }
{{- end }}
{{- end -}}

{{/* NetworkPolicy egress fragments: DNS, then PostgreSQL, Redis and the model provider, either
the in-chart pods or the operator's rules for external services. */}}
{{- define "cairn.networkPolicy.dns" -}}
- ports: [{ port: 53, protocol: UDP }, { port: 53, protocol: TCP }]
{{- end -}}

{{- define "cairn.networkPolicy.inChart" -}}
- to:
    - podSelector:
        matchLabels:
          {{- include "cairn.selectorLabels" (dict "ctx" .ctx "component" .component) | nindent 10 }}
  ports: [{ port: {{ .port }}, protocol: TCP }]
{{- end -}}

{{- define "cairn.networkPolicy.database" -}}
{{- if .Values.postgresql.enabled -}}
{{ include "cairn.networkPolicy.inChart" (dict "ctx" . "component" "postgresql" "port" 5432) }}
{{- else if .Values.postgresql.cloudnativepg.enabled -}}
{{- /* The Cluster's instances (the direct service) and its Pooler's pods, by the operator's labels. */}}
- to:
    - podSelector:
        matchLabels: { cnpg.io/cluster: {{ include "cairn.cnpg.fullname" . }} }
    - podSelector:
        matchLabels: { cnpg.io/poolerName: {{ include "cairn.cnpg.fullname" . }}-pooler-rw }
  ports: [{ port: 5432, protocol: TCP }]
{{- else -}}
{{- range .Values.networkPolicy.databaseEgress }}
{{ list . | toYaml }}
{{- end }}
{{- end -}}
{{- end -}}

{{- define "cairn.networkPolicy.appEgress" -}}
{{ include "cairn.networkPolicy.dns" . }}
{{ include "cairn.networkPolicy.database" . }}
{{- if .Values.redis.enabled }}
{{ include "cairn.networkPolicy.inChart" (dict "ctx" . "component" "redis" "port" 6379) }}
{{- else }}
{{- range .Values.networkPolicy.redisEgress }}
{{ list . | toYaml }}
{{- end }}
{{- end }}
{{- $inChartOllama := and .Values.ollama.enabled (not .Values.ollama.externalUrl) }}
{{- if $inChartOllama }}
{{ include "cairn.networkPolicy.inChart" (dict "ctx" . "component" "ollama" "port" .Values.ollama.service.port) }}
{{- end }}
{{- /* An external provider: no in-chart Ollama, an OpenAI-compatible provider or a reranker configured. */}}
{{- if or (not $inChartOllama) (eq .Values.config.EMBEDDING_PROVIDER "openai") (eq .Values.config.CHAT_PROVIDER "openai") .Values.config.RERANK_URL }}
{{- range .Values.networkPolicy.providerEgress }}
{{ list . | toYaml }}
{{- end }}
{{- end }}
{{- end -}}
