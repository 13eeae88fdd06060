{{/*
Chart name, truncated to 63 characters (the DNS label limit).
*/}}
{{- define "dashboard-apiserver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name of the release's objects: <release>-<chart> unless the release name already contains the chart name.
*/}}
{{- define "dashboard-apiserver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "dashboard-apiserver.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object.
*/}}
{{- define "dashboard-apiserver.labels" -}}
helm.sh/chart: {{ include "dashboard-apiserver.chart" . }}
{{ include "dashboard-apiserver.selectorLabels" . }}
app.kubernetes.io/version: {{ (default .Chart.AppVersion .Values.image.tag) | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Selector labels: never change them in a chart upgrade (a Deployment's selector is immutable).
*/}}
{{- define "dashboard-apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dashboard-apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "dashboard-apiserver.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "dashboard-apiserver.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "dashboard-apiserver.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) }}
{{- end }}

{{/*
Name of the Secret holding the database URL, the admin password, the secret key and the initial service-account token.
*/}}
{{- define "dashboard-apiserver.secretName" -}}
{{- default (include "dashboard-apiserver.fullname" .) .Values.existingSecret }}
{{- end }}

{{/*
auth.initial_service_account_token, and its key in the Secret. Read with defaults: a `helm upgrade --reuse-values`
from a chart version without them has neither.
*/}}
{{- define "dashboard-apiserver.initialToken" -}}
{{- dig "auth" "initial_service_account_token" "" .Values.AsMap | default "" | toString }}
{{- end }}
{{- define "dashboard-apiserver.initialTokenKey" -}}
{{- dig "existingSecretKeys" "initialServiceAccountToken" "initial-service-account-token" .Values.AsMap | default "initial-service-account-token" }}
{{- end }}

{{/*
"http" or "https": the container port's name, the Service port's name and the probes' scheme.
*/}}
{{- define "dashboard-apiserver.protocol" -}}
{{- .Values.server.protocol | default "http" | lower }}
{{- end }}

{{/*
Where a TLS secret (server.tls.secretName) is mounted.
*/}}
{{- define "dashboard-apiserver.tlsDir" -}}
/etc/dashboard-apiserver/tls
{{- end }}

{{/*
Seconds a pod may spend stopping: the preStop sleep, then the server's drain (server.shutdown_timeout_seconds,
whose default is 30; 0 is a valid value).
*/}}
{{- define "dashboard-apiserver.drainSeconds" -}}
{{- $shutdown := .Values.server.shutdown_timeout_seconds }}
{{- if kindIs "invalid" $shutdown }}{{ $shutdown = 30 }}{{ end }}
{{- add (int64 $shutdown) (int64 (default 0 .Values.preStopSleepSeconds)) }}
{{- end }}

{{/*
terminationGracePeriodSeconds: given, or shutdown_timeout_seconds + preStopSleepSeconds + 10.
*/}}
{{- define "dashboard-apiserver.terminationGracePeriodSeconds" -}}
{{- if kindIs "invalid" .Values.terminationGracePeriodSeconds }}
{{- add (include "dashboard-apiserver.drainSeconds" . | int64) 10 }}
{{- else }}
{{- int64 .Values.terminationGracePeriodSeconds }}
{{- end }}
{{- end }}

{{/*
Checks the values that cannot work, so that `helm install` fails with a message instead of pods crash-looping.
Included from every template that depends on them; renders nothing.
*/}}
{{- define "dashboard-apiserver.validate" -}}
{{- if not .Values.existingSecret }}
{{- $url := required "database.url is required (postgres://user:password@host:5432/dbname), or set existingSecret: the chart runs several replicas and will not fall back to the embedded PGlite database, which is for a single local process only" .Values.database.url }}
{{- if and $url (not (regexMatch "^postgres(ql)?://" (toString $url))) }}
{{- fail (printf "database.url must start with postgres:// or postgresql://, got %q" (regexReplaceAll "//[^@/]*@" (toString $url) "//***@")) }}
{{- end }}
{{- end }}
{{- $protocol := include "dashboard-apiserver.protocol" . }}
{{- if not (has $protocol (list "http" "https")) }}
{{- fail (printf "server.protocol must be http or https, got %q" .Values.server.protocol) }}
{{- end }}
{{- if and (eq $protocol "https") (not .Values.server.tls.secretName) }}
{{- fail "server.protocol=https needs server.tls.secretName: a Secret of type kubernetes.io/tls (keys tls.crt and tls.key)" }}
{{- end }}
{{- $port := .Values.server.http_port | int }}
{{- if or (lt $port 1) (gt $port 65535) }}
{{- fail (printf "server.http_port must be a port number in 1..65535 (0, \"any free port\", cannot be probed), got %v" .Values.server.http_port) }}
{{- end }}
{{- if eq (toString .Values.server.edition) "cloud" }}
{{- if not (regexMatch "^[0-9]{1,20}$" (toString .Values.server.stack_id)) }}
{{- fail "server.edition=cloud needs server.stack_id, the stack's numeric id (organization 1 is namespace stacks-<stack_id>)" }}
{{- end }}
{{- if and (not .Values.existingSecret) (not (include "dashboard-apiserver.initialToken" .)) }}
{{- fail "server.edition=cloud takes bearer tokens only, so it needs a first one: set auth.initial_service_account_token (`docker run --rm <image> --new-service-account-token` prints one), or put it in existingSecret under existingSecretKeys.initialServiceAccountToken" }}
{{- end }}
{{- end }}
{{- with include "dashboard-apiserver.initialToken" . }}
{{- if not (regexMatch "^svcsa_[0-9A-Za-z]{32}_[0-9a-f]{8}$" .) }}
{{- fail "auth.initial_service_account_token must be a token of the server's format, svcsa_<32 letters or digits>_<8 hex digits> (`docker run --rm <image> --new-service-account-token` prints one)" }}
{{- end }}
{{- end }}
{{- if and (not (kindIs "invalid" .Values.terminationGracePeriodSeconds)) (le (int64 .Values.terminationGracePeriodSeconds) (include "dashboard-apiserver.drainSeconds" . | int64)) }}
{{- fail "terminationGracePeriodSeconds must be greater than server.shutdown_timeout_seconds + preStopSleepSeconds, or the kubelet kills the server while it drains" }}
{{- end }}
{{- /* The server refuses unknown settings at start-up; refuse them here, before any pod crash-loops. */}}
{{- range $section, $keys := include "dashboard-apiserver.knownSettings" . | fromYaml }}
{{- $parent := first (splitList "." $section) }}
{{- $given := ternary (index $.Values $parent) (include "dashboard-apiserver.sectionValues" (dict "root" $ "section" $section) | fromYaml) (eq $parent $section) }}
{{- /* A section the release's values lack (--reuse-values from an older chart) is empty. */}}
{{- if and (not (kindIs "invalid" $given)) (not (kindIs "map" $given)) }}
{{- fail (printf "%s must be a map of settings, got %v" $section $given) }}
{{- end }}
{{- range $key, $_ := $given }}
{{- if not (has $key $keys) }}
{{- fail (printf "unknown setting %s.%s: the server understands %s" $section $key (join ", " $keys)) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The server's settings, generated from its configuration schema (hack/chart-settings.ts; test/chart checks it):
the sections, their keys, and the secrets, which go to the Secret and are left out of config.ini.
*/}}
{{- /* BEGIN generated by hack/chart-settings.ts from pkg/config/config-schema.ts: do not edit */}}
{{- /* The config.ini sections, in the server's order. */}}
{{- define "dashboard-apiserver.sections" -}}
["server", "database", "registry", "security", "paths", "feature_toggles", "dashboards", "datasources", "dataproxy", "snapshots", "users", "quota", "auth", "auth.anonymous", "auth.saml", "enterprise", "log", "metrics", "smtp"]
{{- end }}
{{- /* Each section's keys as the server reads them, plus the chart's own (server.tls) and nested sections. */}}
{{- define "dashboard-apiserver.knownSettings" -}}
server: [protocol, http_addr, http_port, root_url, cert_file, cert_key, min_tls_version, max_request_body_bytes, shutdown_timeout_seconds, heap_growth_percent, edition, stack_id, tls]
database: [url, max_open_conn, migration_lock_timeout_seconds, prepared_statements]
registry: [history_window_seconds, compaction_interval_seconds, watch_poll_interval_ms, answer_cache_mb]
security: [admin_user, admin_password, admin_email, secret_key, previous_secret_keys, data_source_proxy_whitelist]
paths: [data, provisioning]
feature_toggles: [nestedFolders, enable]
dashboards: [min_refresh_interval, versions_to_keep]
datasources: [datasource_limit]
dataproxy: [timeout, dialTimeout, send_user_header, user_agent, row_limit]
snapshots: [enabled, external_enabled, external_snapshot_url, external_snapshot_name, remove_expired, sweep_interval_seconds]
users: [auto_assign_org_role]
quota: [enabled, org_user, org_dashboard, org_data_source, org_api_key, org_alert_rule, user_org, global_user, global_org, global_dashboard, global_api_key, global_session, global_alert_rule, global_correlations, alerting_rule_group_rules]
auth: [login_cookie_name, login_maximum_lifetime_duration, login_maximum_inactive_lifetime_duration, initial_service_account_token, anonymous, saml]
"auth.anonymous": [enabled, org_name, org_role]
"auth.saml": [enabled, name, entity_id, single_logout, allow_sign_up, auto_login, allow_idp_initiated, relay_state, certificate, certificate_path, private_key, private_key_path, signature_algorithm, idp_metadata, idp_metadata_path, idp_metadata_url, max_issue_delay, metadata_valid_duration, assertion_attribute_name, assertion_attribute_login, assertion_attribute_email, assertion_attribute_groups, assertion_attribute_role, assertion_attribute_org, assertion_attribute_external_uid, allowed_organizations, org_mapping, role_values_none, role_values_viewer, role_values_editor, role_values_admin, role_values_svc_admin, skip_org_role_sync, name_id_format]
enterprise: [license_public_key, license_public_key_path, license_server_url]
log: [level]
metrics: [enabled, basic_auth_username, basic_auth_password]
smtp: [enabled, host, user, password, skip_verify, from_address, from_name, ehlo_identity, startTLS_policy]
{{- end }}
{{- /* Secrets: in the Secret, as SVC_<SECTION>_<KEY> environment, never in config.ini. */}}
{{- define "dashboard-apiserver.secretSettings" -}}
database: [url]
enterprise: [license_public_key]
security: [admin_password, secret_key, previous_secret_keys]
auth: [initial_service_account_token]
metrics: [basic_auth_password]
smtp: [password]
"auth.saml": [private_key]
{{- end }}
{{- /* END generated */}}

{{/*
The values of a section: .Values.<section>, a dotted section ([auth.anonymous]) being a map under its parent
(auth.anonymous); an absent one is empty.
*/}}
{{- define "dashboard-apiserver.sectionValues" -}}
{{- $v := .root.Values.AsMap }}
{{- range splitList "." .section }}
{{- if kindIs "map" $v }}{{ $v = get $v . }}{{ else }}{{ $v = dict }}{{ end }}
{{- end }}
{{- if kindIs "map" $v }}{{ toYaml $v }}{{ else }}{}{{ end }}
{{- end }}

{{/*
One config.ini value. Strings are written JSON-quoted (the server's INI reader unquotes them, so ";", "#" and
"=" in a value are safe); numbers and booleans are written bare; a list is joined with commas.
*/}}
{{- define "dashboard-apiserver.iniValue" -}}
{{- if kindIs "slice" . }}
{{- toJson (join "," .) }}
{{- else }}
{{- toJson . }}
{{- end }}
{{- end }}

{{/*
One config.ini section: (dict "name" <section> "values" <map> "skip" <list of keys>). Keys are written in sorted
order; null values, skipped keys (secrets, chart-only settings) and maps (a dotted section, written as its own)
are left out.
*/}}
{{- define "dashboard-apiserver.iniSection" -}}
[{{ .name }}]
{{- $skip := .skip | default list }}
{{- range $key, $value := .values }}
{{- if and (not (has $key $skip)) (not (kindIs "invalid" $value)) (not (kindIs "map" $value)) }}
{{ $key }} = {{ include "dashboard-apiserver.iniValue" $value }}
{{- end }}
{{- end }}
{{- end }}

{{/*
A probe: (dict "probe" <values> "path" <default path> "protocol" <http|https>). httpGet's port and scheme follow
server.protocol; the other fields (periodSeconds, ...) come from the values as given.
*/}}
{{- define "dashboard-apiserver.probe" -}}
httpGet:
  path: {{ dig "httpGet" "path" .path .probe }}
  port: {{ .protocol }}
  scheme: {{ upper .protocol }}
{{- with omit .probe "httpGet" }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
config.ini: every section in the server's order, secrets and chart-only keys left out.
*/}}
{{- define "dashboard-apiserver.configIni" -}}
{{- $secrets := include "dashboard-apiserver.secretSettings" . | fromYaml }}
{{- $chartOnly := dict "server" (list "tls") }}
{{- range $i, $section := include "dashboard-apiserver.sections" . | fromYamlArray }}
{{- if $i }}{{ "\n\n" }}{{ end }}
{{- $skip := concat (get $secrets $section | default list) (get $chartOnly $section | default list) }}
{{- include "dashboard-apiserver.iniSection" (dict "name" $section "values" (include "dashboard-apiserver.sectionValues" (dict "root" $ "section" $section) | fromYaml) "skip" $skip) }}
{{- end }}
{{- end }}
