! rf.f90 — the misuses of run-time-sized variables of r.c through the
! Fortran module, each with ierr (MDL_ERRORS=return,print): the codes r.c
! gets, and the lines r.c prints (tests/suite-errors.sh).  A view follows
! the storage: none before MDL_Allocate, nor after a refused one.
program rf
  use r_mdl
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double
  implicit none
  type(r), pointer :: t => null()
  real(c_double), pointer :: U(:, :)
  integer(c_int) :: me, other, ierr
  logical :: bad = .false.

  call MDL_Init(t)
  me = MDL_MyRank(t)
  other = 1 - me
  ! before MDL_Allocate
  call MDL_SendTo_r_h(t, other, ierr=ierr)
  call want(ierr, MDL_ERR_STATE, "send before MDL_Allocate")
  call MDL_Allreduce_s(t, ierr)
  call want(ierr, MDL_ERR_STATE, "collective before MDL_Allocate")
  call sync_all()
  ! bad sizes, each refused before anything changes
  t%huge = 1
  t%a = -2
  t%b = 3
  call MDL_Allocate(t, ierr)
  call want(ierr, MDL_ERR_ARG, "negative size")
  t%a = 4
  t%b = 0
  call MDL_Allocate(t, ierr)
  call want(ierr, MDL_ERR_ARG, "zero size")
  t%b = 3
  t%huge = 2_c_long**31
  call MDL_Allocate(t, ierr)
  call want(ierr, MDL_ERR_ARG, "sizes whose bytes overflow")
  t%huge = 1
  call MDL_View_U(t, U)
  if (associated(U)) call want(-1, 0, "a view after a refused MDL_Allocate")
  call MDL_SendTo_r_h(t, other, ierr=ierr)
  call want(ierr, MDL_ERR_STATE, "send after a refused MDL_Allocate")
  call sync_all()
  call MDL_Allocate(t, ierr)
  call want(ierr, MDL_SUCCESS, "MDL_Allocate")
  call MDL_View_U(t, U)
  if (.not. associated(U)) then
    call want(-1, 0, "no view after MDL_Allocate")
  else if (any(lbound(U) /= 0) .or. any(ubound(U) /= [2, 3])) then
    call want(-1, 0, "the bounds of the view")
  end if
  ! a size changed without MDL_Allocate
  t%b = 5
  call MDL_SendTo_r_h(t, other, ierr=ierr)
  call want(ierr, MDL_ERR_STATE, "send after a size changed")
  call MDL_RecvFrom_r_h(t, other, ierr=ierr)
  call want(ierr, MDL_ERR_STATE, "receive after a size changed")
  call MDL_Allreduce_s(t, ierr)
  call want(ierr, MDL_ERR_STATE, "collective after a size changed")
  t%b = 3
  call sync_all()
  call MDL_End(t, ierr)
  call want(ierr, MDL_SUCCESS, "MDL_End")
  if (.not. bad) print '(a, i0, a)', "rf ", me, ": OK"
  if (bad) error stop 1

contains

  subroutine want(got, code, what)
    integer(c_int), intent(in) :: got, code
    character(len=*), intent(in) :: what
    if (got /= code) then
      print '(a, i0, 3a, i0, a, i0)', "rf ", me, ": ", what, " returned ", got, ", expected ", code
      bad = .true.
    end if
  end subroutine want

  subroutine sync_all()
    use, intrinsic :: iso_fortran_env, only: error_unit
    flush(error_unit)
    call MDL_Barrier(t, ierr)
    call want(ierr, MDL_SUCCESS, "barrier")
  end subroutine sync_all
end program rf
