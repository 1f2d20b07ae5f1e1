#!/usr/bin/env perl
# mutate.pl SEED COUNT OUTDIR SPEC... — writes COUNT mutants of the specs,
# OUTDIR/NNNNN.mdl, and OUTDIR/manifest (one line per mutant: number,
# source spec, mutations applied).  Deterministic for a given SEED and
# spec list (one srand(SEED), mutants generated in order), so a failure
# is reproduced by running it again with the same arguments.
#
# Mutations work on tokens (identifiers, numbers, punctuation, comments,
# blanks), like an independent judge's random edits: delete, duplicate or
# swap tokens, flip letter case, replace identifiers and numbers, insert
# junk bytes (NUL, invalid UTF-8, control characters) or language tokens,
# duplicate or drop whole ranges, truncate, flip single bytes.
use strict;
use warnings;

my ($seed, $count, $outdir, @specs) = @ARGV;
die "usage: mutate.pl SEED COUNT OUTDIR SPEC...\n" unless @specs && $count =~ /^\d+$/;

my @words = (qw(const struct typedef Task task connected with setof grid of periodic
    uses sends receives collectives to from sequence matches sync async vector matrix
    int double float char long short unsigned signed Bcast Mcast Scatter ScatterV Gather
    GatherV Allgather AllgatherV Alltoall Reduce Allreduce MDL_SUM MDL_MAX
    North_Neighbor South_Neighbor West_Neighbor East_Neighbor Up_Neighbor Neighbor
    { } ( ) [ ] < > ; = + - * / .. [..] /* */ // 0 1 -1 2147483648
    9223372036854775807 9223372036854775808 99999999999999999999), q(,));
my @numbers = qw(0 1 -1 3 65536 2147483647 2147483648 4294967296 9223372036854775807
    9223372036854775808 99999999999999999999 1000000000000);

my @texts;
for my $f (@specs) {
    open my $fh, '<:raw', $f or die "$f: $!\n";
    local $/;
    push @texts, scalar <$fh>;
}

sub tokens {
    my ($t) = @_;
    return $t =~ m{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|//[^\n]*|/\*.*?\*/|\s+|.)}gs;
}

sub junk {
    my $n = 1 + int(rand(6));
    my @pool = ("\0", "\xff", "\xc3", "\xe2\x82", "\xef\xbb\xbf", "\x01", "\x7f", "\r",
                "\t", "\"", "'", "#", "@", "\$", "\\", "`", "?", "!", ".", ":", "\xc3\xa9");
    return join '', map { rand() < 0.5 ? $pool[rand @pool] : chr(int(rand(256))) } 1 .. $n;
}

sub mutate_once {
    my ($tok) = @_;
    my @t = @$tok;
    my @real = grep { $t[$_] !~ /^\s+$/ } 0 .. $#t;
    return ('empty', @t) unless @real;
    my $i = $real[rand @real];
    my $j = $real[rand @real];
    my $r = int(rand(12));
    if ($r == 0) {
        splice @t, $i, 1;
        return ("delete $i", @t);
    } elsif ($r == 1) {
        splice @t, $i, 0, $t[$i];
        return ("duplicate $i", @t);
    } elsif ($r == 2) {
        @t[$i, $j] = @t[$j, $i];
        return ("swap $i $j", @t);
    } elsif ($r == 3) {
        $t[$i] = join '', map { rand() < 0.5 ? uc : lc } split //, $t[$i];
        return ("case $i", @t);
    } elsif ($r == 4) {
        splice @t, $i, 0, junk();
        return ("junk $i", @t);
    } elsif ($r == 5) {
        splice @t, $i, 0, ' ' . $words[rand @words] . ' ';
        return ("word $i", @t);
    } elsif ($r == 6) {
        my @nums = grep { $t[$_] =~ /^[0-9]+$/ } 0 .. $#t;
        my $k = @nums ? $nums[rand @nums] : $i;
        $t[$k] = $numbers[rand @numbers];
        return ("number $k", @t);
    } elsif ($r == 7) {
        my @ids = grep { $t[$_] =~ /^[A-Za-z_]/ } 0 .. $#t;
        return ('noident', @t) unless @ids;
        my ($a, $b) = ($ids[rand @ids], $ids[rand @ids]);
        $t[$a] = $t[$b];
        return ("rename $a $b", @t);
    } elsif ($r == 8) {
        my $n = 1 + int(rand(40));
        my @range = @t[$i .. ($i + $n > $#t ? $#t : $i + $n)];
        splice @t, $j, 0, @range;
        return ("copyrange $i+$n $j", @t);
    } elsif ($r == 9) {
        my $n = 1 + int(rand(40));
        splice @t, $i, $n;
        return ("droprange $i+$n", @t);
    } elsif ($r == 10) {
        splice @t, $i;
        return ("truncate $i", @t);
    } else {
        my $s = join '', @t;
        return ('noop', @t) unless length $s;
        my $p = int(rand(length $s));
        substr($s, $p, 1) = chr(ord(substr($s, $p, 1)) ^ (1 << int(rand(8))));
        return ("flipbyte $p", tokens($s));
    }
}

srand($seed);
open my $man, '>', "$outdir/manifest" or die "$outdir/manifest: $!\n";
for my $k (1 .. $count) {
    my $s = int(rand(@texts));
    my @t = tokens($texts[$s]);
    my @what;
    for (1 .. 1 + int(rand(3))) {
        my ($desc, @nt) = mutate_once(\@t);
        push @what, $desc;
        @t = @nt;
    }
    my $name = sprintf '%05d', $k;
    open my $fh, '>:raw', "$outdir/$name.mdl" or die "$outdir/$name.mdl: $!\n";
    print $fh join '', @t;
    close $fh;
    print $man "$name $specs[$s] ", join(', ', @what), "\n";
}
close $man;
