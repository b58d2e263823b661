#!/usr/bin/env bash
# Issue 37, item 5: record copies go through each record's builder. Rewrites, in every .java file under src/:
#   x.withStatus(s)                 -> x.toBuilder().status(s).build()        (and the other field copies below)
#   x.withActiveAttempt(a, s)       -> x.toBuilder().activeAttempt(a).status(s).build()
#   new WorkUnitRecord(8, 9 or 11 arguments) -> WorkUnitRecord.builder(spec, name).<each non-default>(..).build()
#   new AttemptRecord(9 arguments)  -> the same with a last argument null (the record's replica flag)
# then folds ".build().toBuilder()" so that a chain of copies is one builder. Only the arities of the old record
# methods are rewritten (AttemptRecord.withStatus(3 args), AppConfig.withReplication(2 args) stay). Idempotent:
# re-run it after a merge; it leaves a call whose arguments hold a // comment, names it and fails (rewrite it by hand).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

pattern='\.with(Status|Priority|ActiveAttempt|NotBefore|AttemptCount|Family|Replication|PurgeAt|AvailableSince'
pattern+='|ChildState|AwaitingPredecessor|Failure|Replicas|Decision|AssimilatedAt|Outcome|ValidateState|Deadline)\s*\('
pattern+='|new (WorkUnitRecord|AttemptRecord)\s*\('
files=$(grep -rlE --include='*.java' "$pattern" src || true)
[ -n "$files" ] || exit 0

# shellcheck disable=SC2086
perl -0777 -i -pe '
  use strict;
  our %SETTERS = (
    Status => ["status"], Priority => ["priority"], ActiveAttempt => ["activeAttempt", "status"],
    NotBefore => ["notBefore", "status"], AttemptCount => ["attemptCount"], Family => ["family"],
    Replication => ["replication"], PurgeAt => ["purgeAt"], AvailableSince => ["availableSince"],
    ChildState => ["childState", "parkedUnder"], AwaitingPredecessor => ["awaitingPredecessor"],
    Failure => ["failure"], Replicas => ["replicas"], Decision => ["target", "errorMask", "canonical"],
    AssimilatedAt => ["assimilatedAt"], Outcome => ["outcome"], ValidateState => ["validateState"],
    Deadline => ["deadline"]);
  # The short constructors of WorkUnitRecord took its first components in this order; builder(spec, name) has
  # these defaults, so an argument equal to one is left out.
  our @UNIT = qw(spec name data priority notBefore status activeAttempt attemptCount family replication purgeAt);
  our %DEFAULT = (data => "null", priority => "0", notBefore => "null", status => "UnitStatus.AVAILABLE",
    activeAttempt => "null", attemptCount => "0", family => "null", replication => "null", purgeAt => "null");

  our $PARENS = qr{(\((?:[^()"\x27/]++|"(?:[^"\\]|\\.)*+"|\x27(?:[^\x27\\]|\\.)*+\x27|//[^\n]*+|/|(?-1))*+\))};

  sub args {    # the top-level arguments of "(...)", each on one line
    my $inner = substr($_[0], 1, -1);
    return () if $inner =~ /^\s*$/;
    my @all;
    my ($cur, $depth) = ("", 0);
    while ($inner =~ /\G("(?:[^"\\]|\\.)*+"|\x27(?:[^\x27\\]|\\.)*+\x27|\/\/[^\n]*|[(\[{]|[)\]}]|,|[^(\[{)\]},"\x27\/]+|\/)/gc) {
      my $t = $1;
      die "an argument holds a comment, rewrite it by hand: $inner\n" if $t =~ m{^//};
      if ($t eq "," && $depth == 0) { push @all, $cur; $cur = ""; next }
      $depth++ if $t =~ /^[(\[{]$/;
      $depth-- if $t =~ /^[)\]}]$/;
      $cur .= $t;
    }
    die "cannot read the arguments ($inner)\n" if (pos($inner) // 0) != length $inner;
    push @all, $cur;
    for (@all) {
      s/^\s+|\s+$//g;
      s/\s*\n\s*/ /g;
    }
    return @all;
  }

  # A call the script cannot rewrite is left as it is and named, and the script fails at the end.
  our $FAILED;
  END { $? = 1 if $FAILED }
  sub unchanged {
    warn "with.sh: $ARGV: $_[1]";
    $FAILED = 1;
    return $_[0];
  }

  sub convert {
    my $text = shift;
    $text =~ s{\.with(\w+)(\s*)$PARENS}{
      my ($whole, $name, $space, $parens) = ($&, $1, $2, $3);
      my @a = eval { args($parens) };
      my $setters = $SETTERS{$name};
      if ($@) {
        unchanged($whole, $@);
      } elsif ($setters && @$setters == @a) {
        ".toBuilder()" . join("", map { ".$setters->[$_](" . convert($a[$_]) . ")" } 0 .. $#a) . ".build()";
      } else {
        ".with$name$space(" . convert(substr($parens, 1, -1)) . ")";
      }
    }ge;
    $text =~ s{new(\s+)(WorkUnitRecord|AttemptRecord)(\s*)$PARENS}{
      my ($whole, $s1, $type, $s2, $parens) = ($&, $1, $2, $3, $4);
      my @a = eval { args($parens) };
      if ($@) {
        unchanged($whole, $@);
      } elsif ($type eq "WorkUnitRecord" && (@a == 8 || @a == 9 || @a == 11)) {
        my @c = map { convert($_) } @a;
        "WorkUnitRecord.builder($c[0], $c[1])"
            . join("", map { $c[$_] eq $DEFAULT{$UNIT[$_]} || ($UNIT[$_] eq "status" && $c[$_] eq "AVAILABLE")
                ? "" : ".$UNIT[$_]($c[$_])" } 2 .. $#c)
            . ".build()";
      } elsif ($type eq "AttemptRecord" && @a == 9) {
        "new$s1$type$s2(" . convert(substr($parens, 1, -1)) . ", null)";
      } else {
        "new$s1$type$s2(" . convert(substr($parens, 1, -1)) . ")";
      }
    }ge;
    return $text;
  }

  # x.toBuilder()...f(x.f())...: a setter that gives the field its own value again (unless the chain set it before)
  sub drop_no_op_setters {
    my ($receiver, $chain) = @_;
    my ($kept, %set) = ("");
    while ($chain =~ /\G(\s*)\.(\w+)($PARENS)/gc) {
      my ($space, $name, $parens) = ($1, $2, $3);
      next if $name ne "build" && !$set{$name} && $parens eq "($receiver.$name())";
      $set{$name} = 1;
      $kept .= "$space.$name$parens";
    }
    return "$receiver.toBuilder()$kept" . substr($chain, pos($chain) // 0);
  }

  # A changed line longer than 120 columns: a trailing comment goes above it; else it is broken at the argument
  # (or && / ||) that holds its first builder chain, if what follows then fits, else before the rightmost call that
  # fits on the level of that chain (or the least nested level).
  sub wrap {
    my ($line, $previous) = @_;
    return $line if length $line <= 120;
    my ($indent) = $line =~ /^(\s*)/;
    my $continued = $previous !~ /(?:[;{}]|\*\/|^\s*(?:\/\/.*|\*.*)?)$/;
    my $next_indent = $continued ? $indent : "$indent    ";
    my ($depth, $chain, $chain_at, $comment, @dots, @separators) = (0);
    while ($line =~ /\G("(?:[^"\\]|\\.)*+"|\x27(?:[^\x27\\]|\\.)*+\x27|\/\/.*|[(\[{]|[)\]}]|&&|\|\||,|\.(?=\w+\()|[^"\x27(\[{)\]}.\/&|,]+|.)/gc) {
      my ($t, $at) = ($1, pos($line) - length $1);
      if ($t =~ m{^//}) {
        $comment = $at;
        last;
      }
      $depth++ if $t =~ /^[(\[{]$/;
      $depth-- if $t =~ /^[)\]}]$/;
      push @separators, [$t eq "," ? $at + 1 : $at, $depth] if $t eq "," || $t eq "&&" || $t eq "||";
      next unless $t eq ".";
      ($chain, $chain_at) = ($depth, $at) if !defined $chain && substr($line, $at) =~ /^\.(?:toBuilder\(\)|builder\()/;
      push @dots, [$at, $depth] if $at <= 120 && $at > length($indent) + 8;
    }
    if (defined $comment && length(substr($line, 0, $comment) =~ s/\s+$//r) <= 120) {
      return $indent . substr($line, $comment) . "\n" . (substr($line, 0, $comment) =~ s/\s+$//r);
    }
    my @around = grep { defined $chain && $_->[1] == $chain && $_->[0] < $chain_at && $_->[0] <= 120 } @separators;
    if (@around) {
      my $rest = $next_indent . (substr($line, $around[-1][0]) =~ s/^\s+//r);
      return (substr($line, 0, $around[-1][0]) =~ s/\s+$//r) . "\n" . $rest if length $rest <= 120;
    }
    my @level = grep { defined $chain && $_->[1] == $chain } @dots;
    unless (@level) {
      my $least = (sort { $a <=> $b } map { $_->[1] } @dots)[0];
      @level = grep { defined $least && $_->[1] == $least } @dots;
    }
    return $line unless @level;
    my $best = $level[-1][0];
    my $head = substr($line, 0, $best) =~ s/\s+$//r;
    return $head . "\n" . wrap($next_indent . substr($line, $best), $head);
  }

  my $original = $_;
  $_ = convert($_);
  s/\.build\(\)(\s*)\.toBuilder\(\)/$1/g;
  s{\b(\w+)\.toBuilder\(\)((?:\s*\.\w+$PARENS)+)}{drop_no_op_setters($1, $2)}ge;
  my %old_lines = map { $_ => 1 } split /\n/, $original;
  my @lines = split /\n/, $_, -1;
  for my $i (0 .. $#lines) {
    $lines[$i] = wrap($lines[$i], $i > 0 ? $lines[$i - 1] : "") unless $old_lines{$lines[$i]};
  }
  $_ = join "\n", @lines;
' $files
