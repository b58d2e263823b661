#!/usr/bin/env bash
# Issue 37, item 4: Keys split per module. Renames every use of io.coordinate.engine.state.codec.Keys in the Java
# sources to the class that now owns it (UnitKeys, AttemptKeys, ..., KeySpace, KeyFamily) and fixes the imports.
# Idempotent: a tree without Keys references is left as it is. Run from the repository's root:
#   tools/merge/keys.sh
# It stops before changing anything when it meets a Keys member it does not know, listing those.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
files=$(grep -rlE '(^|[^A-Za-z0-9_])Keys([.#]|::|\}|;)' --include='*.java' src || true)
[ -z "$files" ] && { echo "keys.sh: nothing to rename"; exit 0; }
# shellcheck disable=SC2086
perl -e '
my %owner;
sub own { my $class = shift; $owner{$_} = $class for @_; }
own("NamespaceKeys", qw(namespace allNamespaces namespaceName namespaceData dataNamespace));
own("SpecKeys", qw(spec allSpecs));
own("UnitKeys", qw(unit units available availableUnits availableUnitName availableSince availableSinceUnits
  availableSinceKnown availableSinceTime count counts countStatus));
own("AttemptKeys", qw(sequence attempt unitAttempt unitAttempts attemptUnitsBlock startedUnitsBlock
  startedUnitsBlocks workerActiveBlock workerActiveAttempts workerAttemptBlock workerAttempts));
own("WorkerKeys", qw(worker allWorkers workerChild workerChildren));
own("FamilyKeys", qw(child children childrenParkedUnder childRef heir heirs heirRef familyCount familyOf HEIRS_KIND));
own("TimeIndexKeys", qw(delayedUnit delayedUnitsBefore delayedUnitsStart parseDelayedUnit attemptDeadlineBlock
  attemptDeadlinesBefore attemptDeadlinesStart parseAttemptDeadlineBlock purge purgesBefore purgesStart parsePurge
  DelayedUnitKey AttemptDeadlineKey AttemptDeadlineBlockKey PurgeKey));
own("AnswerKeys", qw(answer parseAnswer answerExpiry answerExpiriesStart parseAnswerExpiry AnswerKey));
own("KeySpace", qw(stateVersion indexVersion indexLayout groupEnd namespaceTagOffset stringAfter trailingSeq
  prefixEnd NAMESPACE_DATA));
own("KeyFamily", qw(isIndex isRecordTag kind));
# The tag constants became the families of the KeyFamily enum.
my %family = map { $_ => $_ } qw(NAMESPACES SEQUENCES DELAYED_UNITS ATTEMPT_DEADLINES PURGES STATE_VERSION
  INDEX_VERSION INDEX_LAYOUT ANSWER_EXPIRIES SPEC COUNT UNIT AVAILABLE AVAILABLE_SINCE UNIT_ATTEMPTS ATTEMPT
  STARTED_UNITS WORKER ANSWER WORKER_CHILD WORKER_ACTIVE WORKER_ATTEMPTS CHILD HEIR FAMILY_COUNT);
$family{ATTEMPT_UNIT} = "ATTEMPT_UNITS";
my @classes = qw(NamespaceKeys SpecKeys UnitKeys AttemptKeys WorkerKeys FamilyKeys TimeIndexKeys AnswerKeys KeySpace
  KeyFamily);
my $ref = qr/(?<![\w.\/])Keys(?:\.(?!java\b)|#|::)(\w+)/;                        # not the file Keys.java

my (%text, %unknown);
for my $file (@ARGV) {
  open my $in, "<", $file or die "$file: $!";
  local $/;
  $text{$file} = <$in>;
  close $in;
  while ($text{$file} =~ /$ref/g) {
    $unknown{"$1 ($file)"} = 1 unless $owner{$1} || $family{$1} || $1 eq "recordTag";
  }
  $unknown{"a static import ($file)"} = 1 if $text{$file} =~ /import static io\.coordinate\.engine\.state\.codec\.Keys\b/;
}
if (%unknown) {
  print STDERR "keys.sh: Keys members with no new owner, nothing changed:\n  ", join("\n  ", sort keys %unknown), "\n";
  exit 1;
}
for my $file (@ARGV) {
  $_ = $text{$file};
  my $before = $_;
  if ($file =~ m{/engine/state/model/}) {                          # the model is below the codec: no link up
    s/\{\@link Keys#(\w+)\}/{\@code $owner{$1}.$1}/g;
  }
  # The switch of IndexRebuild over the tag of a record becomes one over its family (none for a bare prefix).
  s#^(\s*)switch \(Keys\.recordTag\((\w+)\)\) \{#${1}KeyFamily family = KeyFamily.of($2);\n${1}if (family == null) {\n${1}  return; // a namespace prefix alone: not a key that is ever written\n${1}}\n${1}switch (family) {#mg;
  s/\bcase\s+Keys\.(\w+)(\s*->)/case $family{$1}$2/g;                 # a switch over KeyFamily
  s/(?<![\w.\/])Keys\.(?!java\b)(\w+)/$owner{$1} ? "$owner{$1}.$1" : "KeyFamily.$family{$1}.tag()"/ge;
  s/(?<![\w.])Keys#(\w+)/$owner{$1} ? "$owner{$1}#$1" : "KeyFamily#$family{$1}"/ge;
  s/(?<![\w.])Keys::(\w+)/$owner{$1}::$1/g;
  s/\{\@(link|code) Keys\}/{\@$1 KeyFamily}/g;
  s/\bcodec\.Keys\.(\w+);/codec.$owner{$1}.$1;/g;                     # an import of a nested record
  s/\bcodec\.Keys(?![\w.;])/codec.KeyFamily/g;
  my ($package) = /^package\s+([\w.]+);/m;
  if (s/^import io\.coordinate\.engine\.state\.codec\.Keys;\n/\@\@KEYS_IMPORTS\@\@/m) {
    my @needed;
    (my $referring = $_) =~ s/\{\@code [^}]*\}//g;                  # {@code X} names X without needing it
    for my $class (@classes) {
      next unless $referring =~ /\b$class\b/;
      next if $package eq "io.coordinate.engine.state.codec";
      next if /^import io\.coordinate\.engine\.state\.codec\.$class;/m;
      push @needed, "import io.coordinate.engine.state.codec.$class;\n";
    }
    my $imports = join "", sort @needed;
    s/\@\@KEYS_IMPORTS\@\@/$imports/;
  }
  next if $_ eq $before;
  open my $out, ">", $file or die "$file: $!";
  print $out $_;
  close $out;
  print "keys.sh: $file\n";
}
' $files
