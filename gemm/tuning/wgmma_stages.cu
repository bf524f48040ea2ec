/* Tuning harness, not part of the library: variant 23's two tile widths
 * (128 x 128 and 128 x 64), each on one CTA or on a pair that splits k
 * (all four called directly, whatever the launcher's rule would pick),
 * against cuBLAS BF16 on a list of shapes, C = A B with
 * dense row-major operands, cold L2 (a 256 MB memset before each run),
 * medians of 20 runs after 5 warm-ups; the last column compares C with
 * cuBLAS's. Build one binary per ring depth:
 *   nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -DGKS4_STAGES_NARROW=8 \
 *        -DGKS4_STAGES_WIDE=4 -o wgmma_stages gemm/tuning/wgmma_stages.cu -lcublas -lcuda
 * (tiles-h100/wgmma_stages.txt: the output of three such builds, before the
 * pairs; tiles-h100/wgmma_pairs.txt: the four configurations). */
#include "../kernels/small_04_wgmma_tiles.cu"
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>
static float med(std::vector<float> v){ std::sort(v.begin(),v.end()); return v[v.size()/2]; }
int main(){
  const int shapes[][3]={{256,256,256},{512,512,512},{768,768,768},{1024,1024,1024},{1280,1280,1280},{1536,1536,1536},{2048,2048,2048},
    {1024,256,1024},{512,512,2048},{384,384,4096},{512,512,4096},{1024,1024,2048},{1024,1024,4096},{2048,1024,1024},{1024,2048,512},
    {256,4096,1024},{4096,256,2048},{100,3000,5000},{991,136,3663},{3304,5715,122},{4096,4096,4096}};
  size_t maxe = (size_t)6000*6000;
  __nv_bfloat16 *a,*b,*c,*c2; char* flush;
  cudaMalloc(&a,maxe*2); cudaMalloc(&b,maxe*2); cudaMalloc(&c,maxe*2); cudaMalloc(&c2,maxe*2); cudaMalloc(&flush,256<<20);
  std::vector<__nv_bfloat16> h(maxe); srand(1); for(size_t i=0;i<maxe;i++) h[i]=__float2bfloat16((rand()%2001-1000)/1000.f);
  cudaMemcpy(a,h.data(),maxe*2,cudaMemcpyHostToDevice); cudaMemcpy(b,h.data(),maxe*2,cudaMemcpyHostToDevice);
  cublasHandle_t hd; cublasCreate(&hd);
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const char* names[4]={"w128","w64","w128p","w64p"};
  printf("stages narrow %d wide %d; ratio = cuBLAS time / ours; d = max |C - cuBLAS's C|\n", GKS4_STAGES_NARROW, GKS4_STAGES_WIDE);
  printf("%-16s %9s","shape","cublas_us"); for(int v=0;v<4;v++) printf(" %8s_us %7s %8s",names[v],"ratio","d"); printf("\n");
  for(auto& s: shapes){
    int m=s[0],n=s[1],k=s[2];
    float one=1,zero=0;
    auto cub=[&](){ cublasGemmEx(hd,CUBLAS_OP_N,CUBLAS_OP_N,n,m,k,&one,b,CUDA_R_16BF,n,a,CUDA_R_16BF,k,&zero,c2,CUDA_R_16BF,n,CUBLAS_COMPUTE_32F,CUBLAS_GEMM_DEFAULT);};
    auto mk=[&](int v){ return [=](){
      Params prm; memset(&prm,0,sizeof(prm)); prm.lda=k; prm.ldb=n; prm.ldc=n; prm.c=c; prm.m=m; prm.n=n; prm.k=k;
      prm.tiles_m=(m+127)/128; prm.alpha=1; prm.beta=0; prm.c_vec=(n%2==0);
      const int w = (v==0||v==2)?128:64;
      prm.tiles_n=(n+w-1)/w; size_t units=(size_t)prm.tiles_m*prm.tiles_n;
      if(v==0) run<128,1,false,false,false,false>(prm,a,b,1,units,0);
      else if(v==1) run<64,1,false,false,false,false>(prm,a,b,1,units,0);
      else if(v==2) run<128,2,false,false,false,false>(prm,a,b,1,units,0);
      else run<64,2,false,false,false,false>(prm,a,b,1,units,0); };};
    auto timeit=[&](auto f){ std::vector<float> t; for(int r=0;r<25;r++){ cudaMemsetAsync(flush,r,256<<20); cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1); if(r>=5) t.push_back(ms*1000);} return med(t);};
    float tc=timeit(cub);
    std::vector<__nv_bfloat16> r1((size_t)m*n), r2((size_t)m*n);
    cudaMemcpy(r2.data(),c2,(size_t)m*n*2,cudaMemcpyDeviceToHost);
    char nm[64]; snprintf(nm,64,"%dx%dx%d",m,n,k);
    printf("%-16s %9.2f",nm,tc);
    for(int v=0;v<4;v++){
      cudaMemset(c,0xff,(size_t)m*n*2);
      float tv=timeit(mk(v)); cudaMemcpy(r1.data(),c,(size_t)m*n*2,cudaMemcpyDeviceToHost);
      double dv=0; for(size_t i=0;i<(size_t)m*n;i++){ double e=fabs((double)__bfloat162float(r1[i])-__bfloat162float(r2[i])); if(!(e<=dv)) dv=e; }
      printf(" %11.2f %7.3f %8.3g",tv,tc/tv,dv);
    }
    printf("  %s\n",cudaGetErrorString(cudaGetLastError()));
  }
}
