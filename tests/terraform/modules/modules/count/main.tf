output "n" {
  value = 2
}
