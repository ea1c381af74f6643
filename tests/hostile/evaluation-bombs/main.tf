# Expressions that would build enormous values if evaluated naively.
resource "aws_instance" "billion" {
  count         = 1000000000
  instance_type = "p4d.24xlarge"
}

locals {
  square = [for i in range(100000) : [for j in range(100000) : j]]
}

resource "aws_instance" "nested_for" {
  instance_type = local.square[0][0]
}

resource "aws_instance" "huge_range" {
  count         = length(range(1000000000))
  instance_type = "g5.xlarge"
}

resource "aws_instance" "wide_format" {
  instance_type = format("%999999999d", 1)
}

# Each local doubles the last: 2^40 characters by l40.
locals {
  l0  = "x"
  l1  = "${local.l0}${local.l0}"
  l2  = "${local.l1}${local.l1}"
  l3  = "${local.l2}${local.l2}"
  l4  = "${local.l3}${local.l3}"
  l5  = "${local.l4}${local.l4}"
  l6  = "${local.l5}${local.l5}"
  l7  = "${local.l6}${local.l6}"
  l8  = "${local.l7}${local.l7}"
  l9  = "${local.l8}${local.l8}"
  l10 = "${local.l9}${local.l9}"
  l11 = "${local.l10}${local.l10}"
  l12 = "${local.l11}${local.l11}"
  l13 = "${local.l12}${local.l12}"
  l14 = "${local.l13}${local.l13}"
  l15 = "${local.l14}${local.l14}"
  l16 = "${local.l15}${local.l15}"
  l17 = "${local.l16}${local.l16}"
  l18 = "${local.l17}${local.l17}"
  l19 = "${local.l18}${local.l18}"
  l20 = "${local.l19}${local.l19}"
  l21 = "${local.l20}${local.l20}"
  l22 = "${local.l21}${local.l21}"
  l23 = "${local.l22}${local.l22}"
  l24 = "${local.l23}${local.l23}"
  l25 = "${local.l24}${local.l24}"
  l26 = "${local.l25}${local.l25}"
  l27 = "${local.l26}${local.l26}"
  l28 = "${local.l27}${local.l27}"
  l29 = "${local.l28}${local.l28}"
  l30 = "${local.l29}${local.l29}"
  l31 = "${local.l30}${local.l30}"
  l32 = "${local.l31}${local.l31}"
  l33 = "${local.l32}${local.l32}"
  l34 = "${local.l33}${local.l33}"
  l35 = "${local.l34}${local.l34}"
  l36 = "${local.l35}${local.l35}"
  l37 = "${local.l36}${local.l36}"
  l38 = "${local.l37}${local.l37}"
  l39 = "${local.l38}${local.l38}"
  l40 = "${local.l39}${local.l39}"
}

resource "aws_instance" "doubled_string" {
  instance_type = substr(local.l40, 0, 0) == "" ? "g5.xlarge" : "p5.48xlarge"
}

# Each resource reads the last one twice: 2^40 evaluations unless each is evaluated once.
resource "null_resource" "r0" {
  triggers = "x"
}
resource "null_resource" "r1" {
  triggers = null_resource.r0.triggers == "" ? "y" : null_resource.r0.triggers
}
resource "null_resource" "r2" {
  triggers = null_resource.r1.triggers == "" ? "y" : null_resource.r1.triggers
}
resource "null_resource" "r3" {
  triggers = null_resource.r2.triggers == "" ? "y" : null_resource.r2.triggers
}
resource "null_resource" "r4" {
  triggers = null_resource.r3.triggers == "" ? "y" : null_resource.r3.triggers
}
resource "null_resource" "r5" {
  triggers = null_resource.r4.triggers == "" ? "y" : null_resource.r4.triggers
}
resource "null_resource" "r6" {
  triggers = null_resource.r5.triggers == "" ? "y" : null_resource.r5.triggers
}
resource "null_resource" "r7" {
  triggers = null_resource.r6.triggers == "" ? "y" : null_resource.r6.triggers
}
resource "null_resource" "r8" {
  triggers = null_resource.r7.triggers == "" ? "y" : null_resource.r7.triggers
}
resource "null_resource" "r9" {
  triggers = null_resource.r8.triggers == "" ? "y" : null_resource.r8.triggers
}
resource "null_resource" "r10" {
  triggers = null_resource.r9.triggers == "" ? "y" : null_resource.r9.triggers
}
resource "null_resource" "r11" {
  triggers = null_resource.r10.triggers == "" ? "y" : null_resource.r10.triggers
}
resource "null_resource" "r12" {
  triggers = null_resource.r11.triggers == "" ? "y" : null_resource.r11.triggers
}
resource "null_resource" "r13" {
  triggers = null_resource.r12.triggers == "" ? "y" : null_resource.r12.triggers
}
resource "null_resource" "r14" {
  triggers = null_resource.r13.triggers == "" ? "y" : null_resource.r13.triggers
}
resource "null_resource" "r15" {
  triggers = null_resource.r14.triggers == "" ? "y" : null_resource.r14.triggers
}
resource "null_resource" "r16" {
  triggers = null_resource.r15.triggers == "" ? "y" : null_resource.r15.triggers
}
resource "null_resource" "r17" {
  triggers = null_resource.r16.triggers == "" ? "y" : null_resource.r16.triggers
}
resource "null_resource" "r18" {
  triggers = null_resource.r17.triggers == "" ? "y" : null_resource.r17.triggers
}
resource "null_resource" "r19" {
  triggers = null_resource.r18.triggers == "" ? "y" : null_resource.r18.triggers
}
resource "null_resource" "r20" {
  triggers = null_resource.r19.triggers == "" ? "y" : null_resource.r19.triggers
}
resource "null_resource" "r21" {
  triggers = null_resource.r20.triggers == "" ? "y" : null_resource.r20.triggers
}
resource "null_resource" "r22" {
  triggers = null_resource.r21.triggers == "" ? "y" : null_resource.r21.triggers
}
resource "null_resource" "r23" {
  triggers = null_resource.r22.triggers == "" ? "y" : null_resource.r22.triggers
}
resource "null_resource" "r24" {
  triggers = null_resource.r23.triggers == "" ? "y" : null_resource.r23.triggers
}
resource "null_resource" "r25" {
  triggers = null_resource.r24.triggers == "" ? "y" : null_resource.r24.triggers
}
resource "null_resource" "r26" {
  triggers = null_resource.r25.triggers == "" ? "y" : null_resource.r25.triggers
}
resource "null_resource" "r27" {
  triggers = null_resource.r26.triggers == "" ? "y" : null_resource.r26.triggers
}
resource "null_resource" "r28" {
  triggers = null_resource.r27.triggers == "" ? "y" : null_resource.r27.triggers
}
resource "null_resource" "r29" {
  triggers = null_resource.r28.triggers == "" ? "y" : null_resource.r28.triggers
}
resource "null_resource" "r30" {
  triggers = null_resource.r29.triggers == "" ? "y" : null_resource.r29.triggers
}
resource "null_resource" "r31" {
  triggers = null_resource.r30.triggers == "" ? "y" : null_resource.r30.triggers
}
resource "null_resource" "r32" {
  triggers = null_resource.r31.triggers == "" ? "y" : null_resource.r31.triggers
}
resource "null_resource" "r33" {
  triggers = null_resource.r32.triggers == "" ? "y" : null_resource.r32.triggers
}
resource "null_resource" "r34" {
  triggers = null_resource.r33.triggers == "" ? "y" : null_resource.r33.triggers
}
resource "null_resource" "r35" {
  triggers = null_resource.r34.triggers == "" ? "y" : null_resource.r34.triggers
}
resource "null_resource" "r36" {
  triggers = null_resource.r35.triggers == "" ? "y" : null_resource.r35.triggers
}
resource "null_resource" "r37" {
  triggers = null_resource.r36.triggers == "" ? "y" : null_resource.r36.triggers
}
resource "null_resource" "r38" {
  triggers = null_resource.r37.triggers == "" ? "y" : null_resource.r37.triggers
}
resource "null_resource" "r39" {
  triggers = null_resource.r38.triggers == "" ? "y" : null_resource.r38.triggers
}
resource "null_resource" "r40" {
  triggers = null_resource.r39.triggers == "" ? "y" : null_resource.r39.triggers
}

resource "aws_instance" "chained" {
  instance_type = null_resource.r40.triggers == "x" ? "g5.xlarge" : "p5.48xlarge"
}
