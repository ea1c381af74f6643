# Terraform values that are cheap to write and ruinous to evaluate naively. Each GPU instance
# below must still be reported (as "could not evaluate" where its type depends on the value).

variable "pattern" {
  default = "("
}

# An invalid pattern is an error Terraform's try() catches: the fallback type is used.
resource "aws_instance" "invalid_regex_in_try" {
  instance_type = try(regex(var.pattern, "g5.xlarge"), "g5.xlarge")
}

resource "aws_instance" "invalid_regex" {
  instance_type = regex(var.pattern, "g5.xlarge")
}

resource "aws_instance" "infinite_count" {
  count         = 1e999
  instance_type = "g5.xlarge"
}

resource "aws_instance" "not_a_number" {
  count         = ceil(1e999 - 1e999)
  instance_type = "g5.xlarge"
}

resource "aws_instance" "huge_division" {
  count         = 10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 / 3
  instance_type = "g5.xlarge"
}

resource "aws_instance" "long_digits" {
  count         = tonumber(local.digits)
  instance_type = "g5.xlarge"
}

resource "aws_instance" "squared" {
  instance_type = local.s40 > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "joined" {
  instance_type = length(local.j40) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "formatted" {
  instance_type = length(local.f40) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "replaced" {
  instance_type = length(local.r40) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "concatenated" {
  instance_type = length(local.c40) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "precision" {
  instance_type = length(format("%.999999999f", 1)) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

# Catastrophic backtracking: (a|aa)+ against forty a's and a b tries 2^40 splits.
resource "aws_instance" "backtracking_regex" {
  instance_type = length(regex("^(a|aa)+$", local.as)) > 0 ? "p4d.24xlarge" : "g5.xlarge"
}

resource "aws_instance" "backtracking_replace" {
  instance_type = replace(local.as, "/^(a|aa)+$/", "") == "" ? "p4d.24xlarge" : "g5.xlarge"
}

resource "aws_instance" "distinct_range" {
  instance_type = length(distinct(range(100000))) == 100000 ? "g5.xlarge" : "p4d.24xlarge"
}

# A list shared a thousand times at each of four levels: 10^12 strings once serialised.
resource "aws_instance" "shared_nesting" {
  instance_type = length(jsonencode(local.n4)) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

# Small loops of cheap calls that add up: 10^10 comparisons.
resource "aws_instance" "loop_of_calls" {
  instance_type = length([for i in range(100000) : contains(range(100000), -1)]) > 0 ? "g5.xlarge" : "p4d.24xlarge"
}

resource "aws_instance" "ordinary" {
  instance_type = replace(format("%s.%s", "g5", "xlarge"), "/^g5\\./", "g5.")
}

locals {
  digits = "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999"
  as     = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"
  n0     = [for i in range(1000) : "abcdefghij"]
  n1     = [for i in range(1000) : local.n0]
  n2     = [for i in range(1000) : local.n1]
  n3     = [for i in range(1000) : local.n2]
  n4     = [for i in range(1000) : local.n3]
}

locals {
  s0 = 9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999
  s1 = local.s0 * local.s0
  s2 = local.s1 * local.s1
  s3 = local.s2 * local.s2
  s4 = local.s3 * local.s3
  s5 = local.s4 * local.s4
  s6 = local.s5 * local.s5
  s7 = local.s6 * local.s6
  s8 = local.s7 * local.s7
  s9 = local.s8 * local.s8
  s10 = local.s9 * local.s9
  s11 = local.s10 * local.s10
  s12 = local.s11 * local.s11
  s13 = local.s12 * local.s12
  s14 = local.s13 * local.s13
  s15 = local.s14 * local.s14
  s16 = local.s15 * local.s15
  s17 = local.s16 * local.s16
  s18 = local.s17 * local.s17
  s19 = local.s18 * local.s18
  s20 = local.s19 * local.s19
  s21 = local.s20 * local.s20
  s22 = local.s21 * local.s21
  s23 = local.s22 * local.s22
  s24 = local.s23 * local.s23
  s25 = local.s24 * local.s24
  s26 = local.s25 * local.s25
  s27 = local.s26 * local.s26
  s28 = local.s27 * local.s27
  s29 = local.s28 * local.s28
  s30 = local.s29 * local.s29
  s31 = local.s30 * local.s30
  s32 = local.s31 * local.s31
  s33 = local.s32 * local.s32
  s34 = local.s33 * local.s33
  s35 = local.s34 * local.s34
  s36 = local.s35 * local.s35
  s37 = local.s36 * local.s36
  s38 = local.s37 * local.s37
  s39 = local.s38 * local.s38
  s40 = local.s39 * local.s39
}

locals {
  j0 = "xx"
  j1 = join("", [local.j0, local.j0])
  j2 = join("", [local.j1, local.j1])
  j3 = join("", [local.j2, local.j2])
  j4 = join("", [local.j3, local.j3])
  j5 = join("", [local.j4, local.j4])
  j6 = join("", [local.j5, local.j5])
  j7 = join("", [local.j6, local.j6])
  j8 = join("", [local.j7, local.j7])
  j9 = join("", [local.j8, local.j8])
  j10 = join("", [local.j9, local.j9])
  j11 = join("", [local.j10, local.j10])
  j12 = join("", [local.j11, local.j11])
  j13 = join("", [local.j12, local.j12])
  j14 = join("", [local.j13, local.j13])
  j15 = join("", [local.j14, local.j14])
  j16 = join("", [local.j15, local.j15])
  j17 = join("", [local.j16, local.j16])
  j18 = join("", [local.j17, local.j17])
  j19 = join("", [local.j18, local.j18])
  j20 = join("", [local.j19, local.j19])
  j21 = join("", [local.j20, local.j20])
  j22 = join("", [local.j21, local.j21])
  j23 = join("", [local.j22, local.j22])
  j24 = join("", [local.j23, local.j23])
  j25 = join("", [local.j24, local.j24])
  j26 = join("", [local.j25, local.j25])
  j27 = join("", [local.j26, local.j26])
  j28 = join("", [local.j27, local.j27])
  j29 = join("", [local.j28, local.j28])
  j30 = join("", [local.j29, local.j29])
  j31 = join("", [local.j30, local.j30])
  j32 = join("", [local.j31, local.j31])
  j33 = join("", [local.j32, local.j32])
  j34 = join("", [local.j33, local.j33])
  j35 = join("", [local.j34, local.j34])
  j36 = join("", [local.j35, local.j35])
  j37 = join("", [local.j36, local.j36])
  j38 = join("", [local.j37, local.j37])
  j39 = join("", [local.j38, local.j38])
  j40 = join("", [local.j39, local.j39])
}

locals {
  f0 = "xx"
  f1 = format("%s%s", local.f0, local.f0)
  f2 = format("%s%s", local.f1, local.f1)
  f3 = format("%s%s", local.f2, local.f2)
  f4 = format("%s%s", local.f3, local.f3)
  f5 = format("%s%s", local.f4, local.f4)
  f6 = format("%s%s", local.f5, local.f5)
  f7 = format("%s%s", local.f6, local.f6)
  f8 = format("%s%s", local.f7, local.f7)
  f9 = format("%s%s", local.f8, local.f8)
  f10 = format("%s%s", local.f9, local.f9)
  f11 = format("%s%s", local.f10, local.f10)
  f12 = format("%s%s", local.f11, local.f11)
  f13 = format("%s%s", local.f12, local.f12)
  f14 = format("%s%s", local.f13, local.f13)
  f15 = format("%s%s", local.f14, local.f14)
  f16 = format("%s%s", local.f15, local.f15)
  f17 = format("%s%s", local.f16, local.f16)
  f18 = format("%s%s", local.f17, local.f17)
  f19 = format("%s%s", local.f18, local.f18)
  f20 = format("%s%s", local.f19, local.f19)
  f21 = format("%s%s", local.f20, local.f20)
  f22 = format("%s%s", local.f21, local.f21)
  f23 = format("%s%s", local.f22, local.f22)
  f24 = format("%s%s", local.f23, local.f23)
  f25 = format("%s%s", local.f24, local.f24)
  f26 = format("%s%s", local.f25, local.f25)
  f27 = format("%s%s", local.f26, local.f26)
  f28 = format("%s%s", local.f27, local.f27)
  f29 = format("%s%s", local.f28, local.f28)
  f30 = format("%s%s", local.f29, local.f29)
  f31 = format("%s%s", local.f30, local.f30)
  f32 = format("%s%s", local.f31, local.f31)
  f33 = format("%s%s", local.f32, local.f32)
  f34 = format("%s%s", local.f33, local.f33)
  f35 = format("%s%s", local.f34, local.f34)
  f36 = format("%s%s", local.f35, local.f35)
  f37 = format("%s%s", local.f36, local.f36)
  f38 = format("%s%s", local.f37, local.f37)
  f39 = format("%s%s", local.f38, local.f38)
  f40 = format("%s%s", local.f39, local.f39)
}

locals {
  r0 = "xx"
  r1 = replace(local.r0, "x", "xx")
  r2 = replace(local.r1, "x", "xx")
  r3 = replace(local.r2, "x", "xx")
  r4 = replace(local.r3, "x", "xx")
  r5 = replace(local.r4, "x", "xx")
  r6 = replace(local.r5, "x", "xx")
  r7 = replace(local.r6, "x", "xx")
  r8 = replace(local.r7, "x", "xx")
  r9 = replace(local.r8, "x", "xx")
  r10 = replace(local.r9, "x", "xx")
  r11 = replace(local.r10, "x", "xx")
  r12 = replace(local.r11, "x", "xx")
  r13 = replace(local.r12, "x", "xx")
  r14 = replace(local.r13, "x", "xx")
  r15 = replace(local.r14, "x", "xx")
  r16 = replace(local.r15, "x", "xx")
  r17 = replace(local.r16, "x", "xx")
  r18 = replace(local.r17, "x", "xx")
  r19 = replace(local.r18, "x", "xx")
  r20 = replace(local.r19, "x", "xx")
  r21 = replace(local.r20, "x", "xx")
  r22 = replace(local.r21, "x", "xx")
  r23 = replace(local.r22, "x", "xx")
  r24 = replace(local.r23, "x", "xx")
  r25 = replace(local.r24, "x", "xx")
  r26 = replace(local.r25, "x", "xx")
  r27 = replace(local.r26, "x", "xx")
  r28 = replace(local.r27, "x", "xx")
  r29 = replace(local.r28, "x", "xx")
  r30 = replace(local.r29, "x", "xx")
  r31 = replace(local.r30, "x", "xx")
  r32 = replace(local.r31, "x", "xx")
  r33 = replace(local.r32, "x", "xx")
  r34 = replace(local.r33, "x", "xx")
  r35 = replace(local.r34, "x", "xx")
  r36 = replace(local.r35, "x", "xx")
  r37 = replace(local.r36, "x", "xx")
  r38 = replace(local.r37, "x", "xx")
  r39 = replace(local.r38, "x", "xx")
  r40 = replace(local.r39, "x", "xx")
}

locals {
  c0 = ["x"]
  c1 = concat(local.c0, local.c0)
  c2 = concat(local.c1, local.c1)
  c3 = concat(local.c2, local.c2)
  c4 = concat(local.c3, local.c3)
  c5 = concat(local.c4, local.c4)
  c6 = concat(local.c5, local.c5)
  c7 = concat(local.c6, local.c6)
  c8 = concat(local.c7, local.c7)
  c9 = concat(local.c8, local.c8)
  c10 = concat(local.c9, local.c9)
  c11 = concat(local.c10, local.c10)
  c12 = concat(local.c11, local.c11)
  c13 = concat(local.c12, local.c12)
  c14 = concat(local.c13, local.c13)
  c15 = concat(local.c14, local.c14)
  c16 = concat(local.c15, local.c15)
  c17 = concat(local.c16, local.c16)
  c18 = concat(local.c17, local.c17)
  c19 = concat(local.c18, local.c18)
  c20 = concat(local.c19, local.c19)
  c21 = concat(local.c20, local.c20)
  c22 = concat(local.c21, local.c21)
  c23 = concat(local.c22, local.c22)
  c24 = concat(local.c23, local.c23)
  c25 = concat(local.c24, local.c24)
  c26 = concat(local.c25, local.c25)
  c27 = concat(local.c26, local.c26)
  c28 = concat(local.c27, local.c27)
  c29 = concat(local.c28, local.c28)
  c30 = concat(local.c29, local.c29)
  c31 = concat(local.c30, local.c30)
  c32 = concat(local.c31, local.c31)
  c33 = concat(local.c32, local.c32)
  c34 = concat(local.c33, local.c33)
  c35 = concat(local.c34, local.c34)
  c36 = concat(local.c35, local.c35)
  c37 = concat(local.c36, local.c36)
  c38 = concat(local.c37, local.c37)
  c39 = concat(local.c38, local.c38)
  c40 = concat(local.c39, local.c39)
}
